import type { NextFunction, Request, Response } from 'express';
import { inputInvalid, refuseUnstorableText } from '../resources/index.js';
import { isStorableText, STORABLE_TEXT_EXPECTATION } from '../resources/schema/index.js';

const ESCAPED_OR_NON_ASCII = /[%\u0080-\uffff]/;

/** Whether a raw path segment, once percent-decoded, holds text the database cannot store. */
function unstorableSegment(segment: string): boolean {
  if (!segment.includes('%')) return !isStorableText(segment);
  try {
    return !isStorableText(decodeURIComponent(segment));
  } catch {
    // Broken percent-encoding is the router's to refuse (400); it cannot decode to anything stored.
    return false;
  }
}

/**
 * Refuses, before any route runs, a URL whose path segments or query parameters (names or values) hold text the
 * database cannot store (NUL, a lone surrogate): 400 `input_invalid` naming `(path)` or the parameter, never
 * the text. Routes and handlers may then pass any parameter to SQL.
 */
export function storableUrlMiddleware(req: Request, _res: Response, next: NextFunction): void {
  // Node's HTTP parser refuses control characters in the request target, and raw bytes cannot form a lone
  // surrogate: only an escape or a non-ASCII character can decode to unstorable text (most URLs have neither).
  if (!ESCAPED_OR_NON_ASCII.test(req.url)) return next();
  if (req.path.split('/').some(unstorableSegment))
    return next(inputInvalid([{ path: '(path)', expected: STORABLE_TEXT_EXPECTATION }]));
  // Only a query string with an escape or a raw non-ASCII character can decode to unstorable text.
  const search = req.url.indexOf('?');
  if (search >= 0 && ESCAPED_OR_NON_ASCII.test(req.url.slice(search))) refuseUnstorableText(req.query, '(query)');
  next();
}
