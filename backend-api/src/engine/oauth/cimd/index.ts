export { BoundedExpiringCache } from './bounded-expiring-cache.js';
export { assertRedirectAllowed, type CimdClient } from './cimd-client.js';
export { admitCimdClientId, parseCimdClientId } from './cimd-client-id.js';
export {
  CIMD_MAX_URL_LENGTH,
  CimdDocumentSchema,
  isSafeRedirectUri,
  type CimdDocument,
} from './cimd-document.schema.js';
export {
  CimdResolver,
  DEFAULT_CIMD_LIMITS,
  type CimdResolverLimits,
  type CimdResolverOptions,
} from './cimd-resolver.service.js';
export {
  CIMD_RESOLUTION_REASONS,
  CimdResolutionError,
  type CimdResolutionErrorOptions,
  type CimdResolutionReason,
} from './cimd.errors.js';
