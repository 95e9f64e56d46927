import { FRAMEWORK_ERROR_JSON_RPC, JSON_RPC_ERROR_CODES, type FrameworkErrorCode } from '../errors/index.js';
import { JsonRpcMethods } from '../jsonrpc/index.js';

/** The two A2A dialects this server speaks on one endpoint: 0.2.5/0.3 (`message/send`) and 1.0 (`SendMessage`). */
export type A2aDialect = 'legacy' | 'v1';

/** Protocol versions served, per dialect (the card advertises them; `A2A-Version` is checked against them). */
export const A2A_PROTOCOL_VERSIONS: Readonly<Record<A2aDialect, readonly string[]>> = {
  legacy: ['0.3.0', '0.3', '0.2.5'],
  v1: ['1.0'],
};

/** What a method does, whatever its dialect's name for it. */
export type A2aOperation =
  | 'send'
  | 'stream'
  | 'get'
  | 'list'
  | 'cancel'
  | 'subscribe'
  | 'push.set'
  | 'push.get'
  | 'push.list'
  | 'push.delete';

/** Method names of each dialect (looked up by own name only); the dialect of a request is read from its method name. */
export const A2A_METHODS = new JsonRpcMethods<{ dialect: A2aDialect; operation: A2aOperation }>({
  'message/send': { dialect: 'legacy', operation: 'send' },
  'message/stream': { dialect: 'legacy', operation: 'stream' },
  'tasks/get': { dialect: 'legacy', operation: 'get' },
  'tasks/cancel': { dialect: 'legacy', operation: 'cancel' },
  'tasks/resubscribe': { dialect: 'legacy', operation: 'subscribe' },
  'tasks/pushNotificationConfig/set': { dialect: 'legacy', operation: 'push.set' },
  'tasks/pushNotificationConfig/get': { dialect: 'legacy', operation: 'push.get' },
  'tasks/pushNotificationConfig/list': { dialect: 'legacy', operation: 'push.list' },
  'tasks/pushNotificationConfig/delete': { dialect: 'legacy', operation: 'push.delete' },
  SendMessage: { dialect: 'v1', operation: 'send' },
  SendStreamingMessage: { dialect: 'v1', operation: 'stream' },
  GetTask: { dialect: 'v1', operation: 'get' },
  ListTasks: { dialect: 'v1', operation: 'list' },
  CancelTask: { dialect: 'v1', operation: 'cancel' },
  SubscribeToTask: { dialect: 'v1', operation: 'subscribe' },
  CreateTaskPushNotificationConfig: { dialect: 'v1', operation: 'push.set' },
  GetTaskPushNotificationConfig: { dialect: 'v1', operation: 'push.get' },
  ListTaskPushNotificationConfigs: { dialect: 'v1', operation: 'push.list' },
  DeleteTaskPushNotificationConfig: { dialect: 'v1', operation: 'push.delete' },
});

/** Task states in their canonical (0.2.5, lower-case) spelling; push payloads always use these. */
export const A2A_TASK_STATES = [
  'submitted',
  'working',
  'input-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
  'auth-required',
] as const;

/** A task state in its canonical spelling. */
export type A2aTaskState = (typeof A2A_TASK_STATES)[number];

/** States a task never leaves. */
export const TERMINAL_STATES: ReadonlySet<A2aTaskState> = new Set(['completed', 'failed', 'canceled', 'rejected']);

/** The 1.0 spelling of a state (`TASK_STATE_WORKING`). */
export function v1State(state: A2aTaskState): string {
  return `TASK_STATE_${state.toUpperCase().replace('-', '_')}`;
}

/** A canonical state from either spelling, or undefined for an unknown one. */
export function canonicalState(value: string): A2aTaskState | undefined {
  const lower = value
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace('_', '-');
  return A2A_TASK_STATES.find((state) => state === lower);
}

/** JSON-RPC error codes A2A names, besides the JSON-RPC ones. */
export const A2A_ERRORS = {
  ...JSON_RPC_ERROR_CODES,
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  PUSH_NOTIFICATION_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  VERSION_NOT_SUPPORTED: -32009,
  /** Authentication required: A2A leaves -32001 to a missing task, so this server uses one of the free codes. */
  AUTHENTICATION_REQUIRED: -32010,
} as const;

/** The framework's code table for A2A: not-found is the specification's task-not-found code. */
export const A2A_FRAMEWORK_ERROR_TABLE: { readonly [Code in FrameworkErrorCode]: number } = {
  ...FRAMEWORK_ERROR_JSON_RPC,
  UNAUTHENTICATED: A2A_ERRORS.AUTHENTICATION_REQUIRED,
  NOT_FOUND: A2A_ERRORS.TASK_NOT_FOUND,
};

/** A protocol-level failure answered as a JSON-RPC error with an HTTP status, before or instead of a turn. */
export class A2aRpcError extends Error {
  override readonly name = 'A2aRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly status = 200,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The refusal for a task the caller cannot see (missing, or another owner's: the same answer). */
export function taskNotFound(): A2aRpcError {
  return new A2aRpcError(A2A_ERRORS.TASK_NOT_FOUND, 'Task not found.');
}

/** Invalid params with a client-safe message. */
export function invalidParams(message: string): A2aRpcError {
  return new A2aRpcError(A2A_ERRORS.INVALID_PARAMS, `Invalid params: ${message}`);
}
