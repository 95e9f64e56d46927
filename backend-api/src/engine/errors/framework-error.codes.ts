/**
 * The closed set of error codes the framework answers with, and the one table from code to HTTP status.
 * A code says what kind of failure happened; a refusal's `reason` (below) says which rule refused.
 */
export const FRAMEWORK_ERROR_STATUS = {
  BAD_REQUEST: 400,
  MALFORMED_JSON: 400,
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  OPERATION_RETIRED: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PRECONDITION_REQUIRED: 428,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** One of the framework's error codes. */
export type FrameworkErrorCode = keyof typeof FRAMEWORK_ERROR_STATUS;

/**
 * Machine reasons for refusals made by the framework's own rules (authentication, authorization,
 * rate limits, lifecycle, input contract, approval). Every surface reports them: REST in the error
 * envelope, MCP under `_meta`. The set is closed so clients can branch on it.
 */
export const REFUSAL_REASONS = [
  'no_credential',
  'credential_invalid',
  'principal_denied',
  'principal_not_allowed',
  'identity_not_evaluable',
  'role_refused',
  'rate_limit_exceeded',
  'lifecycle_blocked',
  'input_invalid',
  'approval_required',
  'step_up_required',
  'budget_exhausted',
] as const;

/** One of {@link REFUSAL_REASONS}. */
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
