import type { Request, Response } from 'express';
import { FrameworkError } from '../errors/index.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';

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

/** One place projection withheld a value (governance's `WithheldValue`, as the envelope carries it). */
interface WithheldEntry {
  path: string;
  reason: string;
}

/**
 * Sends the success envelope `{ data }`, plus `nextCursor` for pages and, when the response contract withheld
 * values, `withheld: [{ path, reason }]` (paths into `data`; a list index is the item's position as the source
 * returned it).
 */
export function sendData(
  res: Response,
  status: number,
  data: unknown,
  nextCursor?: string | null,
  withheld?: readonly WithheldEntry[],
): void {
  const envelope: { data: unknown; nextCursor?: string | null; withheld?: readonly WithheldEntry[] } =
    nextCursor === undefined ? { data } : { data, nextCursor };
  if (withheld && withheld.length > 0) envelope.withheld = withheld;
  res.statusCode = status;
  // A conditional request goes through Express, which answers 304 when the ETag matches; every other answer is
  // written directly (Express's send re-parses the content type and checks freshness on each response).
  if (res.req.headers['if-none-match'] !== undefined || res.req.headers['if-modified-since'] !== undefined) {
    res.json(envelope);
    return;
  }
  const body = JSON.stringify(envelope);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(body));
  // Node writes no body for HEAD itself.
  res.end(body);
}
