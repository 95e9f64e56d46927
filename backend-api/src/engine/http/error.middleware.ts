import type { NextFunction, Request, Response } from 'express';
import { FrameworkError, toFrameworkError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { errorEnvelope, httpState } from '../routing/index.js';

/** Body-parser and router failures, mapped to the framework's codes (their messages may echo input and are never sent). */
function fromBodyParser(error: unknown): FrameworkError | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return new FrameworkError('MALFORMED_JSON', 'The request body is not valid JSON.', {
        reason: 'input_invalid',
        cause: error,
      });
    case 'entity.too.large':
      return new FrameworkError('PAYLOAD_TOO_LARGE', 'The request body is too large.', { cause: error });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new FrameworkError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as UTF-8 JSON.', { cause: error });
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'stream.not.readable':
      return new FrameworkError('BAD_REQUEST', 'The request body could not be read.', { cause: error });
    default:
      return fromHttpStatus(error);
  }
}

/** Other client errors raised by Express itself (e.g. a path with broken percent-encoding), by their status. */
function fromHttpStatus(error: unknown): FrameworkError | undefined {
  if (error instanceof FrameworkError) return undefined;
  const status =
    (error as { status?: unknown; statusCode?: unknown } | null)?.status ??
    (error as { statusCode?: unknown } | null)?.statusCode;
  if (error instanceof URIError || status === 400)
    return new FrameworkError('BAD_REQUEST', 'The request is malformed.', { cause: error });
  if (status === 404) return new FrameworkError('NOT_FOUND', 'No such endpoint.', { cause: error });
  return undefined;
}

/**
 * The one error middleware: every failure leaves as `{ error: { code, message, reason?, problems?, requestId } }`
 * with the status of its code. Unknown errors become a generic 500; their details go to the log only.
 */
export function errorMiddleware(logger: Logger) {
  return function handleError(error: unknown, req: Request, res: Response, _next: NextFunction): void {
    const framework = fromBodyParser(error) ?? toFrameworkError(error);
    const { requestId } = httpState(res);
    if (framework.code === 'INTERNAL') {
      logger.error('request failed', {
        requestId,
        method: req.method,
        route: httpState(res).route ?? req.route?.path,
        error: describe(framework.cause ?? error),
        details: framework.details,
      });
    } else if (framework.status >= 500) {
      logger.warn('request refused', { requestId, code: framework.code, error: describe(framework.cause) });
    }
    if (res.headersSent) return void res.end();
    if (framework.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(framework.retryAfterSeconds));
    if (framework.code === 'UNAUTHENTICATED') {
      res.setHeader(
        'www-authenticate',
        framework.reason === 'no_credential' ? 'Bearer realm="wildo"' : 'Bearer realm="wildo", error="invalid_token"',
      );
    }
    res.status(framework.status).json(errorEnvelope(framework, requestId));
  };
}

/** Answers requests no route matched, without repeating the path. */
export function notFoundHandler(_req: Request, _res: Response, next: NextFunction): void {
  next(new FrameworkError('NOT_FOUND', 'No such endpoint.'));
}

function describe(error: unknown): unknown {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  // A thrown non-Error goes to the logger as it is: pino serializes (and redacts) it, where String() prints "[object Object]".
  return error;
}
