import type { CoreResourceOperation, ResourceOperationFailures } from '@wildo/shared-lib';
import { FrameworkError, type InputProblem, type RefusalReason } from '../errors/index.js';
import { declaredFailure, failureFromBackendAnswer, type BackendAnswer } from '../governance/index.js';
import type { Logger } from '../logging/index.js';
import type { SqlExecutor, StoreFilters } from '../persistence/index.js';
import type { ExecutionContext } from './execution-context.js';

/** A record as the API shows it: its fields plus `_id` and the system fields. */
export type ResourceRecord = Record<string, unknown> & {
  _id: string;
  createdAt: string;
  updatedAt: string;
  version: number;
};

/** Builds the framework's errors from handler code, so custom operations refuse like core ones. */
export interface ErrorBuilder {
  badRequest(message: string, problems?: readonly InputProblem[]): FrameworkError;
  forbidden(message: string, reason?: RefusalReason): FrameworkError;
  notFound(message?: string): FrameworkError;
  conflict(message: string): FrameworkError;
  /**
   * One of the failures the operation declares, by its code: the caller receives the code and the declared
   * description. A code the operation does not declare is an internal error (the caller sees the status only).
   */
  failure(code: string): FrameworkError;
  /**
   * A backend's non-2xx answer (its status and parsed body) as the error to throw: the declared failure its body
   * names, else an error carrying the status only (see `failureFromBackendAnswer`).
   */
  fromBackendAnswer(answer: BackendAnswer): FrameworkError;
}

/** The {@link ErrorBuilder} of an operation that declares `failures` (none: every failure code is undeclared). */
export function errorBuilderFor(failures?: ResourceOperationFailures): ErrorBuilder {
  return {
    badRequest: (message, problems) =>
      new FrameworkError('VALIDATION_FAILED', message, { reason: 'input_invalid', ...(problems ? { problems } : {}) }),
    forbidden: (message, reason = 'role_refused') => new FrameworkError('FORBIDDEN', message, { reason }),
    notFound: (message = 'The record was not found.') => new FrameworkError('NOT_FOUND', message),
    conflict: (message) => new FrameworkError('CONFLICT', message),
    failure: (code) => declaredFailure(failures, code),
    fromBackendAnswer: (answer) => failureFromBackendAnswer(failures, answer),
  };
}

/** The default {@link ErrorBuilder}: for hooks and guards, which belong to no one operation's declared failures. */
export const errorBuilder: ErrorBuilder = errorBuilderFor();

/** Records of one resource type inside the caller's tenant (the scope comes from the execution context). */
export interface ScopedRecords {
  get(id: string): Promise<ResourceRecord | null>;
  list(query?: {
    filters?: StoreFilters;
    limit?: number;
    cursor?: string;
  }): Promise<{ data: ResourceRecord[]; nextCursor: string | null }>;
  /** Creates a record (validated against the full schema, relationships checked), written by the caller's principal. */
  create(data: Record<string, unknown>, options?: { id?: string }): Promise<ResourceRecord>;
  /**
   * Applies a validated patch with optimistic concurrency: retried on conflict, or refused (412) when
   * `expectedVersion` pins the version the patch was computed from.
   */
  update(
    id: string,
    patch: Record<string, unknown>,
    options?: { expectedVersion?: number },
  ): Promise<ResourceRecord | null>;
  countBy(field: string, filters?: StoreFilters): Promise<Map<string | number | boolean | null, number>>;
}

/** What every service handler receives besides its arguments. */
export interface ServiceHandlerUtils {
  errorBuilder: ErrorBuilder;
  logger: Logger;
  now(): Date;
  /** Records of the handler's own resource in the caller's tenant. */
  records: ScopedRecords;
  /** Records of another resource type in the caller's tenant. */
  resources(resourceType: string): ScopedRecords;
  /** CREATE only: the id the engine will give the new record (for handlers that embed it, e.g. in a key). */
  newRecordId?: string;
  /** An engine or application service from the container, resolved when the handler needs it. */
  resolve<T>(token: symbol): T;
}

/** Runs before persistence of a core operation and returns the (possibly changed) input. */
export type PrefixCoreHandler = (
  id: string | undefined,
  input: unknown,
  executionContext: ExecutionContext,
  operationPath: string,
  utils: ServiceHandlerUtils,
) => Promise<unknown>;

/** Runs after persistence of a core operation and returns the (possibly changed) result. */
export type PostfixCoreHandler = (
  id: string | undefined,
  result: unknown,
  executionContext: ExecutionContext,
  operationPath: string,
  utils: ServiceHandlerUtils,
) => Promise<unknown>;

/** Arguments of a custom operation handler. `record` is the addressed record of an instance operation. */
export interface CustomOperationArgs<TInput> {
  id?: string;
  record?: ResourceRecord;
  input: TInput;
  executionContext: ExecutionContext;
  utils: ServiceHandlerUtils;
}

/** Implements one custom operation; its result is projected through the declared response schema. */
export type CustomOperationHandler<TInput = never, TOutput = unknown> = (
  args: CustomOperationArgs<TInput>,
) => Promise<TOutput>;

/**
 * A custom operation handler as the engine stores it, whatever its declared types: hand-annotated handlers
 * (`CustomOperationArgs<X>`) and the typed handlers of `handle.implement(...)` (`id: string`, typed records) both
 * fit. The engine validates the input and loads the addressed record before calling it.
 */
// The method form is checked bivariantly: a handler that asks for more precise arguments still fits.
export type AnyCustomOperationHandler = { handle(args: CustomOperationArgs<unknown>): Promise<unknown> }['handle'];

/** What a {@link RecordGuard} sees of one call. */
export interface RecordGuardArgs {
  /** Core operation value (`create`, `delete`, ...) or custom operation key (`rotate`). */
  operation: string;
  /** The addressed record as stored before the call (UPDATE, DELETE, instance custom operations). */
  record?: ResourceRecord;
  /** The validated input (absent for operations without a body). */
  input: unknown;
  executionContext: ExecutionContext;
  operationPath: string;
  utils: ServiceHandlerUtils;
}

/**
 * Refuses a call (by throwing) before any side effect: runs for every operation but READ, LIST and SEARCH,
 * after input validation and before a step-up proof is consumed, so a refused call leaves the proof usable.
 */
export type RecordGuard = (args: RecordGuardArgs) => void | Promise<void>;

/** Work to do once a transaction committed (announcements to other replicas). */
export type AfterCommit = () => Promise<void>;

/**
 * Runs inside a DELETE's transaction, after the record is gone: writes that must commit or roll back with the
 * deletion (revocations) go through `tx`, and only through it. The function it returns runs after commit.
 */
export type DeleteInTransactionHandler = (
  deleted: ResourceRecord,
  tx: SqlExecutor,
  executionContext: ExecutionContext,
  utils: ServiceHandlerUtils,
) => Promise<AfterCommit | void>;

/** Handlers for one resource: prefix/postfix for all or some core operations, and custom operations. */
export interface ResourceCustomServiceImplementation {
  resourceType: string;
  /** The resource's one guard for every write (see {@link RecordGuard}). */
  guard?: RecordGuard;
  deleteInTransaction?: DeleteInTransactionHandler;
  prefixCoreOperations?: PrefixCoreHandler | Partial<Record<CoreResourceOperation, PrefixCoreHandler>>;
  postfixCoreOperations?: PostfixCoreHandler | Partial<Record<CoreResourceOperation, PostfixCoreHandler>>;
  customOperations?: Readonly<Record<string, AnyCustomOperationHandler>>;
}

/** The core-operation hooks of a service implementation: what `handle.implement(operations, hooks)` takes beside the handlers. */
export type ResourceCustomServiceHooks = Omit<ResourceCustomServiceImplementation, 'resourceType' | 'customOperations'>;

/**
 * Declares the service code of a resource. Registered through a module's `customServiceImplementations`;
 * the engine refuses to start when a declared custom operation has no handler or a handler has no declaration.
 *
 * The typed form is the resource handle's `implement` (`todos.implement({ complete: async ({ id, input, utils }) => ... })`),
 * which produces the same implementation.
 *
 * @example
 * createResourceCustomServiceImplementation('todos', {
 *   customOperations: { complete: async ({ id, utils }: CustomOperationArgs<{ note?: string }>) => utils.records.update(String(id), { status: 'done' }) },
 * });
 */
export function createResourceCustomServiceImplementation(
  resourceType: string,
  handlers: Omit<ResourceCustomServiceImplementation, 'resourceType'>,
): ResourceCustomServiceImplementation {
  return { resourceType, ...handlers };
}

/** Picks the handler for one core operation from a single function or a per-operation map. */
export function handlerFor<T>(
  handlers: T | Partial<Record<CoreResourceOperation, T>> | undefined,
  operation: CoreResourceOperation,
): T | undefined {
  if (!handlers) return undefined;
  if (typeof handlers === 'function') return handlers as T;
  return (handlers as Partial<Record<CoreResourceOperation, T>>)[operation];
}
