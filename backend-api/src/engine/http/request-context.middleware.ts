import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { HttpState } from '../routing/index.js';

/** An incoming request id is kept only when it cannot smuggle anything into logs or headers. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Assigns the request id, sets the API's baseline response headers, and starts the engine's state. */
export function requestContextMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get('x-request-id');
  const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  const state: HttpState = { requestId, principal: null };
  Object.assign(res.locals, state);
  res.setHeader('x-request-id', requestId);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('cache-control', 'no-store');
  next();
}
