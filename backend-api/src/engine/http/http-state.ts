import type { Request, Response } from 'express';
import { FrameworkError } from '../errors/index.js';
import type { AuthenticatedPrincipal } from '../identity/principal.types.js';

/** What the engine's middleware attaches to one HTTP exchange. */
export interface HttpState {
  requestId: string;
  principal: AuthenticatedPrincipal | null;
  /** The route pattern that served the request, when the engine matched it without an Express route. */
  route?: string;
}

/** The engine's state of this exchange (set by the first middleware). */
export function httpState(res: Response): HttpState {
  return res.locals as HttpState;
}

/** The verified principal of a request, or a 401 refusal when it carries no credential. */
export function requirePrincipal(res: Response): AuthenticatedPrincipal {
  const principal = httpState(res).principal;
  if (!principal)
    throw new FrameworkError('UNAUTHENTICATED', 'Authentication is required.', { reason: 'no_credential' });
  return principal;
}

/** A route parameter as a string (Express 5 types them loosely). */
export function param(req: Request, name: string): string {
  const value = (req.params as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

/** Sends the success envelope `{ data }` (plus `nextCursor` for pages). */
export function sendData(res: Response, status: number, data: unknown, nextCursor?: string | null): void {
  res.statusCode = status;
  res.json(nextCursor === undefined ? { data } : { data, nextCursor });
}
