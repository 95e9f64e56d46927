import {
  FRAMEWORK_ERROR_JSON_RPC,
  FRAMEWORK_ERROR_STATUS,
  type FrameworkErrorCode,
  type RefusalReason,
} from './framework-error.codes.js';

/** Where an input failed its contract: a path (never the submitted value) and what was expected there. */
export interface InputProblem {
  path: string;
  expected: string;
}

/** A failure an operation declares (`OPERATION_FAILED`): its code and the declared description, nothing else. */
export interface DeclaredFailure {
  code: string;
  description: string;
}

/** A declared output field whose value had the wrong type: its path and the JSON type the contract declares there. */
export interface InvalidField {
  field: string;
  expected: string;
}

/** Where a result broke its declared contract (`CONTRACT_VIOLATION`): declared paths only, never a value. */
export interface ContractViolation {
  /** Required fields the result left out. */
  missing: readonly string[];
  /** Fields sent with a value of the wrong type. */
  invalid: readonly InvalidField[];
}

/** A call waiting for a person's approval: what the caller needs to have it decided and to retry with it. */
export interface ApprovalReference {
  /** Send it back with the retry (REST: the `Approval-Id` header). */
  id: string;
  status: 'pending';
  expiresAt: string;
  /** The page where the person decides. */
  decideAt: string;
}

/** Options of a {@link FrameworkError}. `details` and `cause` go to logs only, never to clients. */
export interface FrameworkErrorOptions {
  reason?: RefusalReason;
  problems?: readonly InputProblem[];
  failure?: DeclaredFailure;
  violation?: ContractViolation;
  /** The HTTP status a backend answered with (`UPSTREAM_FAILED`). */
  upstreamStatus?: number;
  /** Seconds a client should wait before retrying (429, 503). */
  retryAfterSeconds?: number;
  /** The pending approval the call waits for (`approval_required`, `approval_pending`). */
  approval?: ApprovalReference;
  /** Log-only context; never serialized to a client. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The framework's one error class. `message` is written for clients and must not contain submitted
 * values or internal state; anything else belongs in `details`.
 *
 * @example
 * throw new FrameworkError('NOT_FOUND', 'No todo with this id.');
 */
export class FrameworkError extends Error {
  override readonly name = 'FrameworkError';
  readonly code: FrameworkErrorCode;
  readonly reason?: RefusalReason;
  readonly problems?: readonly InputProblem[];
  readonly failure?: DeclaredFailure;
  readonly violation?: ContractViolation;
  readonly upstreamStatus?: number;
  readonly retryAfterSeconds?: number;
  readonly approval?: ApprovalReference;
  readonly details?: Record<string, unknown>;

  constructor(code: FrameworkErrorCode, message: string, options: FrameworkErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.reason) this.reason = options.reason;
    if (options.problems) this.problems = options.problems;
    if (options.failure) this.failure = options.failure;
    if (options.violation) this.violation = options.violation;
    if (options.upstreamStatus !== undefined) this.upstreamStatus = options.upstreamStatus;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.approval) this.approval = options.approval;
    if (options.details) this.details = options.details;
  }

  /** HTTP status of this error's code. */
  get status(): number {
    return FRAMEWORK_ERROR_STATUS[this.code];
  }
}

/** Normalizes anything thrown into a {@link FrameworkError}; unknown errors become `INTERNAL`, keeping their cause. */
export function toFrameworkError(error: unknown): FrameworkError {
  if (error instanceof FrameworkError) return error;
  return new FrameworkError('INTERNAL', 'An internal error occurred.', { cause: error });
}

/** What an error tells a client beside its code and message (see {@link clientFields}). */
export interface ClientErrorFields {
  reason?: RefusalReason;
  problems?: readonly InputProblem[];
  failure?: DeclaredFailure;
  violation?: ContractViolation;
  upstreamStatus?: number;
  approval?: ApprovalReference;
}

/** A JSON-RPC error object: `{ code, message, data? }`. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: ClientErrorFields;
}

/**
 * A framework error as a JSON-RPC error, by {@link FRAMEWORK_ERROR_JSON_RPC} (or a surface's own table): the
 * client-safe message (a generic one for internal errors), and the refusal reason and input problems as `data`.
 *
 * @example
 * res.status(error.status).json({ jsonrpc: '2.0', id, error: toJsonRpcError(error) });
 */
export function toJsonRpcError(
  error: FrameworkError,
  table: { readonly [Code in FrameworkErrorCode]: number } = FRAMEWORK_ERROR_JSON_RPC,
): JsonRpcErrorObject {
  if (error.code === 'INTERNAL') return { code: table.INTERNAL, message: 'Internal error' };
  const data = clientFields(error);
  return { code: table[error.code], message: error.message, ...(Object.keys(data).length > 0 ? { data } : {}) };
}

/**
 * What an error tells a client beside its code and message, on every surface: the refusal reason, input problems,
 * the declared failure, the contract violation and a backend's status, each only when present.
 */
export function clientFields(error: FrameworkError): ClientErrorFields {
  return {
    ...(error.reason ? { reason: error.reason } : {}),
    ...(error.problems ? { problems: error.problems } : {}),
    ...(error.failure ? { failure: error.failure } : {}),
    ...(error.violation ? { violation: error.violation } : {}),
    ...(error.upstreamStatus !== undefined ? { upstreamStatus: error.upstreamStatus } : {}),
    ...(error.approval ? { approval: error.approval } : {}),
  };
}

/** The most problems reported for one input, so a hostile payload cannot make an error arbitrarily large. */
export const MAX_REPORTED_PROBLEMS = 16;
