import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../logging/index.js';
import { httpState } from '../routing/index.js';

/** The matched route pattern, under the API's mount point when it was matched there; never the raw URL. */
export function routeOf(req: Request, engineRoute: string | undefined, apiPrefix: string): string {
  const pattern = engineRoute ?? (req.route?.path ? String(req.route.path) : undefined);
  if (pattern === undefined) return '(unmatched)';
  // Routers restore baseUrl before 'finish' fires, so the API's mount point is added back here.
  return `${req.originalUrl.startsWith(`${apiPrefix}/`) ? apiPrefix : ''}${pattern}`;
}

/**
 * One log line per finished request: method, the matched route pattern (never the raw URL, which may carry
 * hostile text), status, duration, request id and the principal's id. Secrets never reach it.
 */
export function accessLogMiddleware(logger: Logger, apiPrefix: string) {
  return function accessLog(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const state = httpState(res);
      const principal = state.principal;
      logger.info('request', {
        requestId: state.requestId,
        method: req.method,
        route: routeOf(req, state.route, apiPrefix),
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        ...(principal
          ? { principal: principal.kind === 'user' ? `user:${principal.userId}` : `client:${principal.clientId}` }
          : {}),
      });
    });
    next();
  };
}
