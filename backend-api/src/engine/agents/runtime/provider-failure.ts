import { FrameworkError } from '../../errors/index.js';
import { ProviderCallError } from '../providers/index.js';

/**
 * A provider failure as the caller of an agent sees it: a client-safe message per kind (the vendor's text goes
 * to logs and traces only). Anything that is not a provider failure passes through unchanged.
 */
export function toAgentCallError(error: unknown): unknown {
  if (!(error instanceof ProviderCallError)) return error;
  const details = { providerRef: error.providerRef, kind: error.kind, status: error.status };
  switch (error.kind) {
    case 'not_configured':
      return new FrameworkError(
        'SERVICE_UNAVAILABLE',
        'This agent is not available: its model provider is not configured on this server.',
        { details, cause: error },
      );
    case 'rate_limited':
      return new FrameworkError('SERVICE_UNAVAILABLE', 'The model provider is busy; try again shortly.', {
        details,
        cause: error,
        retryAfterSeconds: Math.max(1, Math.ceil((error.retryAfterMs ?? 5_000) / 1000)),
      });
    case 'refused':
      return new FrameworkError('BAD_REQUEST', 'The model provider refused this request.', { details, cause: error });
    case 'invalid_response':
      return new FrameworkError(
        'SERVICE_UNAVAILABLE',
        'The model provider returned an answer that could not be used; try again.',
        { details, cause: error },
      );
    default:
      return new FrameworkError('SERVICE_UNAVAILABLE', 'The model provider is unavailable; try again shortly.', {
        details,
        cause: error,
        retryAfterSeconds: 5,
      });
  }
}
