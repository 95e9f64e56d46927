import type { FrameworkError } from '../errors/index.js';

/** The error body every surface sends (REST responses, SSE `error` events): code, message, reason, problems, request id. */
export function errorEnvelope(framework: FrameworkError, requestId: string) {
  return {
    error: {
      code: framework.code,
      message: framework.message,
      ...(framework.reason ? { reason: framework.reason } : {}),
      ...(framework.problems ? { problems: framework.problems } : {}),
      requestId,
    },
  };
}
