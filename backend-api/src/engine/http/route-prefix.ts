import express, { type RequestHandler, type Router } from 'express';

/**
 * Groups routers that only serve paths starting with `prefix`: any other request skips them with one string
 * test, instead of being matched against each of their routes (resource traffic passes several such groups).
 */
export function onlyUnder(prefix: string, routers: readonly Router[]): RequestHandler {
  const group = express.Router();
  for (const router of routers) group.use(router);
  // Case-insensitive, as Express matches routes.
  const under = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i');
  return (req, res, next) => {
    if (under.test(req.path)) group(req, res, next);
    else next();
  };
}
