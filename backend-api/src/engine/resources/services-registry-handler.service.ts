import { randomUUID } from 'node:crypto';
import { CoreResourceOperation } from '@wildo/shared-lib';
import { inject, injectable, type Container } from 'inversify';
import type { ResourcesApplication } from './resources-module.js';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type {
  RecordConstraint,
  ResourceStore,
  SqlExecutor,
  StoreFilters,
  StoreWriteOutcome,
  TenantScope,
} from '../persistence/index.js';
import type { CompiledOperation, CompiledResource } from './compiled-resource.types.js';
import {
  errorBuilder,
  errorBuilderFor,
  handlerFor,
  type AfterCommit,
  type ResourceCustomServiceImplementation,
  type ResourceRecord,
  type ServiceHandlerUtils,
} from './custom-service.js';
import type { ExecutionContext } from './execution-context.js';
import { confinedToOwnRecords } from './operation-admission.service.js';
import {
  insertRecord,
  patchRecord,
  preconditionFailed,
  scopeFor,
  scopedRecords,
  toApiRecord,
} from './record-access.js';
import type { ResourcesRegistry } from './resources-registry.service.js';
import type { RoleHierarchyResolver } from '../identity/index.js';

/** Runs after every check of a call (input, addressed record, guard) and before its first side effect. */
export type OperationGate = () => Promise<void>;

/** Options of a core operation that do not come from the input contract. */
export interface CoreOperationOptions {
  /** Which variant's record policy applies (default variant when omitted). */
  variantKey?: string;
  /** The version the caller last saw (HTTP If-Match). */
  expectedVersion?: number;
  /** LIST / SEARCH paging and filters, already validated. */
  query?: { filters?: StoreFilters; limit?: number; cursor?: string; text?: string };
  /** The dispatcher consumes a step-up proof here, so a call refused by a check does not burn it. */
  gate?: OperationGate;
}

/** Options of a custom operation. */
export interface CustomOperationOptions {
  variantKey?: string;
  gate?: OperationGate;
}

/** What persistence needs beyond the caller's options: the DELETE's in-transaction work, when there is some. */
interface PersistOptions extends CoreOperationOptions {
  inDeleteTransaction?: (tx: SqlExecutor) => Promise<AfterCommit | void>;
}

/** Core operations that change nothing and reveal no secret: no guard runs for them. */
const READS: ReadonlySet<CoreResourceOperation> = new Set([
  CoreResourceOperation.READ,
  CoreResourceOperation.LIST,
  CoreResourceOperation.SEARCH,
]);

/** A page of records. */
export interface RecordPage {
  data: ResourceRecord[];
  nextCursor: string | null;
}

const notFound = () => errorBuilder.notFound();

/**
 * Runs the call's gate. An operation that needs a step-up proof and comes without a gate (code calling the
 * pipeline directly, which cannot present a proof) is refused: the requirement cannot be skipped.
 */
async function passGate(operation: CompiledOperation, gate: OperationGate | undefined): Promise<void> {
  if (gate) return gate();
  if (operation.requiresReauthentication) {
    throw new FrameworkError('FORBIDDEN', 'This operation needs a person to re-authenticate.', {
      reason: 'step_up_required',
    });
  }
}

/** Refuses a delete that removed nothing: absent (or outside the caller's reach), or changed since it was read. */
function deleted(outcome: StoreWriteOutcome<unknown>): void {
  if (!outcome.ok) throw outcome.reason === 'not_found' ? notFound() : preconditionFailed();
}

/**
 * The service pipeline of every operation, in this order: the addressed record (instance operations, and
 * guarded or transactional writes), the resource's guard (every operation but reads), the call's gate (step-up),
 * prefix handlers, persistence (or the custom handler; a DELETE's in-transaction work), postfix handlers. It does
 * not authenticate, authorize, rate-limit or project: the dispatcher does that before and after, and code
 * calling this directly must run admission itself (a step-up requirement it cannot meet is refused here).
 */
@injectable()
export class ServicesRegistryHandler {
  private readonly implementations = new Map<string, ResourceCustomServiceImplementation>();

  constructor(
    @inject(SAAS_SERVICE_TYPES.ResourcesRegistry) private readonly registry: ResourcesRegistry,
    @inject(SAAS_SERVICE_TYPES.ResourceStore) private readonly store: ResourceStore,
    @inject(SAAS_SERVICE_TYPES.RoleHierarchyResolver) private readonly roles: RoleHierarchyResolver,
    @inject(SAAS_SERVICE_TYPES.Logger) private readonly logger: Logger,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.ApplicationDefinition) application: ResourcesApplication,
    @inject(SAAS_SERVICE_TYPES.Container) private readonly container: Container,
  ) {
    for (const module of application.modules) {
      for (const impl of module.customServiceImplementations ?? []) this.implementations.set(impl.resourceType, impl);
    }
  }

  /** Runs a core operation for `executionContext`. `input` must already satisfy the operation's input contract. */
  async executeCoreOperation<T = unknown>(
    resourceType: string,
    operation: CoreResourceOperation,
    executionContext: ExecutionContext,
    id?: string,
    input?: unknown,
    options: CoreOperationOptions = {},
  ): Promise<T> {
    const resource = this.registry.getResource(resourceType);
    const compiled = this.operationOf(resourceType, operation, options.variantKey);
    const path = compiled.servicePath;
    const impl = this.implementations.get(resourceType);
    const prefix = handlerFor(impl?.prefixCoreOperations, operation);
    const postfix = handlerFor(impl?.postfixCoreOperations, operation);
    const guard = READS.has(operation) ? undefined : impl?.guard;
    const inDelete = operation === CoreResourceOperation.DELETE ? impl?.deleteInTransaction : undefined;
    // A new record's id is chosen before the hooks run, so a prefix handler can embed it (API keys do).
    const recordId = operation === CoreResourceOperation.CREATE ? randomUUID() : id;
    // Built only when a hook runs: most operations have none, and this is on every request's path.
    const utils =
      prefix || postfix || guard || inDelete
        ? this.utilsFor(resource, executionContext, operation === CoreResourceOperation.CREATE ? recordId : undefined)
        : undefined;
    const constraint = this.constraintFor(compiled, executionContext);
    // A guarded write reads its record first: the guard judges it as stored, and the write is pinned to that version.
    const addressed =
      (guard || inDelete) && operation !== CoreResourceOperation.CREATE
        ? await this.addressedRecord(resource, executionContext, id, constraint)
        : undefined;
    if (guard && utils)
      await guard({
        operation,
        ...(addressed ? { record: addressed } : {}),
        input,
        executionContext,
        operationPath: path,
        utils,
      });
    await passGate(compiled, options.gate);
    const effectiveInput = prefix && utils ? await prefix(id, input, executionContext, path, utils) : input;
    const persistOptions: PersistOptions = {
      ...options,
      ...(addressed && options.expectedVersion === undefined ? { expectedVersion: addressed.version } : {}),
      ...(inDelete && addressed && utils
        ? { inDeleteTransaction: (tx: SqlExecutor) => inDelete(addressed, tx, executionContext, utils) }
        : {}),
    };
    const result = await this.persist(
      resource,
      operation,
      executionContext,
      recordId,
      effectiveInput,
      constraint,
      persistOptions,
    );
    return (postfix && utils ? await postfix(id, result, executionContext, path, utils) : result) as T;
  }

  /** Runs a custom operation's handler; an instance operation first loads its record in the caller's tenant. */
  async executeCustomOperation<T = unknown>(
    resourceType: string,
    operationKey: string,
    executionContext: ExecutionContext,
    id?: string,
    input?: unknown,
    options: CustomOperationOptions = {},
  ): Promise<T> {
    const resource = this.registry.getResource(resourceType);
    const compiled = this.operationOf(resourceType, operationKey, options.variantKey);
    const impl = this.implementations.get(resourceType);
    const handler = impl?.customOperations?.[operationKey];
    if (!handler || compiled.unimplemented)
      throw new FrameworkError('NOT_IMPLEMENTED', 'This operation is not implemented.');
    const record =
      compiled.target === 'instance'
        ? await this.addressedRecord(resource, executionContext, id, this.constraintFor(compiled, executionContext))
        : undefined;
    // The handler raises the operation's declared failures by code (`utils.errorBuilder.failure(code)`).
    const utils = { ...this.utilsFor(resource, executionContext), errorBuilder: errorBuilderFor(compiled.failures) };
    const operationPath = compiled.servicePath;
    await impl?.guard?.({
      operation: operationKey,
      ...(record ? { record } : {}),
      input,
      executionContext,
      operationPath,
      utils,
    });
    await passGate(compiled, options.gate);
    return (await handler({
      ...(id ? { id } : {}),
      ...(record ? { record } : {}),
      input: input as never,
      executionContext,
      utils,
    })) as T;
  }

  /** The record an instance operation addresses, as stored in the caller's tenant; not found otherwise. */
  private async addressedRecord(
    resource: CompiledResource,
    context: ExecutionContext,
    id: string | undefined,
    constraint: RecordConstraint | undefined,
  ): Promise<ResourceRecord> {
    const stored = id
      ? await this.store.findById(resource.storeDefinition, scopeFor(resource, context), id, constraint)
      : null;
    if (!stored) throw notFound();
    return toApiRecord(resource, stored);
  }

  private async persist(
    resource: CompiledResource,
    operation: CoreResourceOperation,
    context: ExecutionContext,
    id: string | undefined,
    input: unknown,
    constraint: RecordConstraint | undefined,
    options: PersistOptions,
  ): Promise<unknown> {
    const def = resource.storeDefinition;
    const scope = scopeFor(resource, context);
    const resolve = (type: string) => this.registry.getResource(type);
    switch (operation) {
      case CoreResourceOperation.CREATE:
        return toApiRecord(
          resource,
          await insertRecord(this.store, resolve, resource, context, input as Record<string, unknown>, id),
        );
      case CoreResourceOperation.READ: {
        const stored = id ? await this.store.findById(def, scope, id, constraint) : null;
        if (!stored) throw notFound();
        return toApiRecord(resource, stored);
      }
      case CoreResourceOperation.UPDATE: {
        const stored = id
          ? await patchRecord(this.store, resolve, resource, context, id, input as Record<string, unknown>, {
              ...(constraint ? { constraint } : {}),
              ...(options.expectedVersion !== undefined ? { expectedVersion: options.expectedVersion } : {}),
            })
          : null;
        if (!stored) throw notFound();
        return toApiRecord(resource, stored);
      }
      case CoreResourceOperation.DELETE:
        if (!id) throw notFound();
        await this.remove(resource, scope, id, constraint, options);
        return { _id: id, deleted: true };
      case CoreResourceOperation.LIST:
      case CoreResourceOperation.SEARCH:
        return this.page(resource, operation, scope, constraint, options);
    }
  }

  /** Deletes a record; work that must commit with the deletion runs in its transaction, announcements after it. */
  private async remove(
    resource: CompiledResource,
    scope: TenantScope,
    id: string,
    constraint: RecordConstraint | undefined,
    options: PersistOptions,
  ): Promise<void> {
    const condition = {
      ...(options.expectedVersion !== undefined ? { expectedVersion: options.expectedVersion } : {}),
      ...(constraint ? { constraint } : {}),
    };
    const within = options.inDeleteTransaction;
    if (!within) return deleted(await this.store.delete(resource.storeDefinition, scope, id, condition));
    const afterCommit = await this.store.transaction(async (store, tx) => {
      deleted(await store.delete(resource.storeDefinition, scope, id, condition));
      return within(tx);
    });
    await afterCommit?.();
  }

  private async page(
    resource: CompiledResource,
    operation: CoreResourceOperation,
    scope: ReturnType<typeof scopeFor>,
    constraint: RecordConstraint | undefined,
    options: CoreOperationOptions,
  ): Promise<RecordPage> {
    const query = options.query ?? {};
    const common = {
      filters: query.filters ?? {},
      limit: query.limit ?? 20,
      ...(query.cursor ? { cursor: query.cursor } : {}),
      ...(constraint ? { constraint } : {}),
    };
    const page =
      operation === CoreResourceOperation.SEARCH
        ? await this.store.search(resource.storeDefinition, scope, { ...common, text: query.text ?? '' })
        : await this.store.list(resource.storeDefinition, scope, common);
    return { data: page.records.map((r) => toApiRecord(resource, r)), nextCursor: page.nextCursor };
  }

  private operationOf(resourceType: string, operation: string, variantKey?: string): CompiledOperation {
    const path = this.registry.getServiceOperationPathDefault(resourceType, operation);
    return this.registry.getOperationFromPath(variantKey && variantKey !== 'default' ? `${path}#${variantKey}` : path);
  }

  /** Owner-only variants confine callers without an exempt role to the records they created. */
  private constraintFor(operation: CompiledOperation, context: ExecutionContext): RecordConstraint | undefined {
    if (!confinedToOwnRecords(this.roles, operation, context)) return undefined;
    // A machine principal creates no user-owned records, so it owns none: match nothing.
    return { createdByUserId: context.initiatorIds.userId ?? '' };
  }

  private utilsFor(resource: CompiledResource, context: ExecutionContext, newRecordId?: string): ServiceHandlerUtils {
    const resolve = (type: string) => this.registry.getResource(type);
    return {
      ...(newRecordId ? { newRecordId } : {}),
      errorBuilder,
      logger: this.logger,
      now: () => this.clock.now(),
      records: scopedRecords(this.store, resolve, resource, context),
      resources: (type) => scopedRecords(this.store, resolve, resolve(type), context),
      resolve: <T>(token: symbol) => this.container.get<T>(token),
    };
  }
}
