export {
  FRAMEWORK_ERROR_STATUS,
  REFUSAL_REASONS,
  type FrameworkErrorCode,
  type RefusalReason,
} from './framework-error.codes.js';
export {
  FrameworkError,
  MAX_REPORTED_PROBLEMS,
  toFrameworkError,
  type FrameworkErrorOptions,
  type InputProblem,
} from './framework-error.js';
