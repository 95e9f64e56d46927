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
  /** The operation failed for one of the reasons it declares (`failures`): the answer names it. */
  OPERATION_FAILED: 422,
  PRECONDITION_REQUIRED: 428,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  /** The backend behind an operation answered with a status it does not declare: the answer carries the status only. */
  UPSTREAM_FAILED: 502,
  /** The operation's result does not satisfy its declared output contract: it is withheld whole. */
  CONTRACT_VIOLATION: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** One of the framework's error codes. */
export type FrameworkErrorCode = keyof typeof FRAMEWORK_ERROR_STATUS;

/**
 * JSON-RPC 2.0 error codes the framework answers with: the specification's own, and two of the range it leaves
 * to implementations (-32000 to -32099): a generic server error and authentication required.
 */
export const JSON_RPC_ERROR_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SERVER_ERROR: -32000,
  AUTHENTICATION_REQUIRED: -32001,
} as const;

/**
 * The one table from code to JSON-RPC error code, for the JSON-RPC surfaces (MCP; A2A overrides the entries its
 * specification names, such as a task not found). A refusal's `reason` travels in the error's `data`.
 */
export const FRAMEWORK_ERROR_JSON_RPC: { readonly [Code in FrameworkErrorCode]: number } = {
  BAD_REQUEST: JSON_RPC_ERROR_CODES.INVALID_REQUEST,
  MALFORMED_JSON: JSON_RPC_ERROR_CODES.PARSE_ERROR,
  VALIDATION_FAILED: JSON_RPC_ERROR_CODES.INVALID_PARAMS,
  UNAUTHENTICATED: JSON_RPC_ERROR_CODES.AUTHENTICATION_REQUIRED,
  FORBIDDEN: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  NOT_FOUND: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  METHOD_NOT_ALLOWED: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  CONFLICT: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  OPERATION_RETIRED: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  PRECONDITION_FAILED: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  PAYLOAD_TOO_LARGE: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  UNSUPPORTED_MEDIA_TYPE: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  OPERATION_FAILED: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  PRECONDITION_REQUIRED: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  RATE_LIMITED: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  INTERNAL: JSON_RPC_ERROR_CODES.INTERNAL_ERROR,
  NOT_IMPLEMENTED: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  UPSTREAM_FAILED: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  CONTRACT_VIOLATION: JSON_RPC_ERROR_CODES.SERVER_ERROR,
  SERVICE_UNAVAILABLE: JSON_RPC_ERROR_CODES.SERVER_ERROR,
};

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
  'approval_pending',
  'approval_denied',
  'approval_invalid',
  'approval_not_evaluable',
  'step_up_required',
  'budget_exhausted',
] as const;

/** One of {@link REFUSAL_REASONS}. */
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
