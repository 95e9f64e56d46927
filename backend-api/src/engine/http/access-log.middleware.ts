import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../logging/index.js';
import { httpState } from './http-state.js';

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
        // Routers restore baseUrl before 'finish' fires, so the API's mount point is added back here.
        route: req.route?.path ? `${req.originalUrl.startsWith(`${apiPrefix}/`) ? apiPrefix : ''}${String(req.route.path)}` : '(unmatched)',
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        ...(principal ? { principal: principal.kind === 'user' ? `user:${principal.userId}` : `client:${principal.clientId}` } : {}),
      });
    });
    next();
  };
}
