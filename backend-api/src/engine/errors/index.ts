export {
  FRAMEWORK_ERROR_JSON_RPC,
  FRAMEWORK_ERROR_STATUS,
  JSON_RPC_ERROR_CODES,
  REFUSAL_REASONS,
  type FrameworkErrorCode,
  type RefusalReason,
} from './framework-error.codes.js';
export {
  clientFields,
  type ApprovalReference,
  FrameworkError,
  MAX_REPORTED_PROBLEMS,
  toFrameworkError,
  toJsonRpcError,
  type ClientErrorFields,
  type ContractViolation,
  type DeclaredFailure,
  type FrameworkErrorOptions,
  type InputProblem,
  type InvalidField,
  type JsonRpcErrorObject,
} from './framework-error.js';
