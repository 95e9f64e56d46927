import express, { type NextFunction, type Request, type Response } from 'express';
import { FrameworkError } from '../errors/index.js';
import { refuseUnstorableText } from '../resources/index.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Parses JSON bodies up to `limitBytes`. A body with another media type is refused (415) rather than
 * ignored, so a client never has a payload silently dropped; a body holding text the database cannot store
 * (NUL, a lone surrogate, in a value or a key) is refused as `input_invalid` before any route runs.
 */
export function jsonBodyMiddleware(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, strict: false, type: ['application/json', 'application/*+json'] });
  return function jsonBody(req: Request, res: Response, next: NextFunction): void {
    if (!METHODS_WITH_BODY.has(req.method)) return next();
    const length = req.get('content-length');
    const hasBody = (length !== undefined && length !== '0') || req.get('transfer-encoding') !== undefined;
    if (hasBody && !req.is(['application/json', 'application/*+json'])) {
      return next(new FrameworkError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.'));
    }
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      try {
        refuseUnstorableText(req.body);
      } catch (refusal) {
        return next(refusal);
      }
      next();
    });
  };
}
