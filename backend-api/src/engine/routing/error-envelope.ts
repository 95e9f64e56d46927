import { clientFields, type FrameworkError } from '../errors/index.js';

/**
 * The error body every surface sends (REST responses, SSE `error` events): code, message, and when present the
 * refusal reason, input problems, declared failure (`failure: { code, description }`), contract violation
 * (`violation: { missing, invalid }`) and a backend's status (`upstreamStatus`); then the request id.
 */
export function errorEnvelope(framework: FrameworkError, requestId: string) {
  return { error: { code: framework.code, message: framework.message, ...clientFields(framework), requestId } };
}
