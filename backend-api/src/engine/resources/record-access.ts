import { ResourcePrimaryScope } from '@wildo/shared-lib';
import { FrameworkError, type InputProblem } from '../errors/index.js';
import type {
  RecordConstraint,
  RecordCreator,
  ResourceStore,
  StoredRecord,
  TenantScope,
} from '../persistence/index.js';
import type { CompiledResource } from './compiled-resource.types.js';
import type { ResourceRecord, ScopedRecords } from './custom-service.js';
import type { ExecutionContext } from './execution-context.js';
import { toInputProblems } from './schema/index.js';

/** How many times an internal read-modify-write retries after a concurrent update. */
const MAX_UPDATE_ATTEMPTS = 3;

/** The API shape of a stored record: `_id` first, declared fields, then the system fields (authoritative). */
export function toApiRecord(resource: CompiledResource, stored: StoredRecord): ResourceRecord {
  const record: Record<string, unknown> = { _id: stored.id };
  Object.assign(record, stored.data);
  record._id = stored.id;
  if (resource.scope === ResourcePrimaryScope.ORGANIZATIONS) record.organizationId = stored.organizationId;
  if (resource.scope === ResourcePrimaryScope.USER) record.userId = stored.userId;
  record.createdByUserId = stored.createdByUserId;
  record.createdAt = stored.createdAt;
  record.updatedAt = stored.updatedAt;
  record.version = stored.version;
  return record as ResourceRecord;
}

/** Who is writing, as the store records it. Machine principals have no user id. */
export function creatorOf(context: ExecutionContext): RecordCreator {
  const userId = context.initiatorIds.userId ?? null;
  return {
    userId,
    principalType: context.executionType,
    principalId: userId ?? context.initiatorIds.clientId ?? 'system',
  };
}

/** The tenant scope in which records of `resource` are reached from `context`. */
export function scopeFor(resource: CompiledResource, context: ExecutionContext): TenantScope {
  if (resource.scope === ResourcePrimaryScope.APPLICATION) return { kind: 'application' };
  const expected = resource.scope === ResourcePrimaryScope.ORGANIZATIONS ? 'organization' : 'user';
  if (context.tenant.kind !== expected) {
    throw new FrameworkError('INTERNAL', 'An internal error occurred.', {
      details: { problem: 'tenant kind mismatch', resourceType: resource.type, tenant: context.tenant.kind },
    });
  }
  return context.tenant;
}

/** Checks that data about to be stored satisfies the full declared schema; returns the parsed data. */
export function validateStoredData(resource: CompiledResource, data: Record<string, unknown>): Record<string, unknown> {
  const parsed = resource.storageSchema.safeParse(data);
  if (!parsed.success) {
    throw new FrameworkError('VALIDATION_FAILED', 'The record does not satisfy its contract.', {
      reason: 'input_invalid',
      problems: toInputProblems(parsed.error.issues, data),
    });
  }
  return parsed.data as Record<string, unknown>;
}

/** Refuses references to records that do not exist in the same tenant (no cross-tenant links). */
export async function checkRelationships(
  store: ResourceStore,
  resolve: (type: string) => CompiledResource,
  resource: CompiledResource,
  context: ExecutionContext,
  data: Record<string, unknown>,
  changed?: ReadonlySet<string>,
): Promise<void> {
  const problems: InputProblem[] = [];
  for (const relation of resource.declaration.relationships ?? []) {
    const value = data[relation.field];
    if (typeof value !== 'string' || (changed && !changed.has(relation.field))) continue;
    const target = resolve(relation.resourceType);
    const found = await store.findById(target.storeDefinition, scopeFor(target, context), value);
    if (!found) problems.push({ path: relation.field, expected: `the id of an existing ${target.type} record` });
  }
  if (problems.length > 0) {
    throw new FrameworkError('VALIDATION_FAILED', 'A referenced record does not exist.', {
      reason: 'input_invalid',
      problems,
    });
  }
}

/** Validates and inserts a record in the caller's tenant, written by the caller's principal. */
export async function insertRecord(
  store: ResourceStore,
  resolve: (type: string) => CompiledResource,
  resource: CompiledResource,
  context: ExecutionContext,
  input: Record<string, unknown>,
  id?: string,
): Promise<StoredRecord> {
  const data = validateStoredData(resource, input);
  await checkRelationships(store, resolve, resource, context, data);
  return store.insert(resource.storeDefinition, scopeFor(resource, context), {
    ...(id ? { id } : {}),
    data,
    creator: creatorOf(context),
  });
}

/** Options of a patch write. */
export interface PatchOptions {
  constraint?: RecordConstraint;
  /** The version the caller saw (If-Match); a mismatch is refused instead of retried. */
  expectedVersion?: number;
}

/**
 * Applies a patch with optimistic concurrency: read, merge, validate, write at the read version; on a
 * concurrent change, retry from the read (or refuse when the caller pinned a version).
 */
export async function patchRecord(
  store: ResourceStore,
  resolve: (type: string) => CompiledResource,
  resource: CompiledResource,
  context: ExecutionContext,
  id: string,
  patch: Record<string, unknown>,
  options: PatchOptions = {},
): Promise<StoredRecord | null> {
  const scope = scopeFor(resource, context);
  for (let attempt = 1; ; attempt++) {
    const current = await store.findById(resource.storeDefinition, scope, id, options.constraint);
    if (!current) return null;
    if (options.expectedVersion !== undefined && current.version !== options.expectedVersion)
      throw preconditionFailed();
    const data = validateStoredData(resource, { ...current.data, ...patch });
    await checkRelationships(store, resolve, resource, context, data, new Set(Object.keys(patch)));
    const outcome = await store.update(resource.storeDefinition, scope, id, {
      data,
      expectedVersion: current.version,
      ...(options.constraint ? { constraint: options.constraint } : {}),
    });
    if (outcome.ok) return outcome.value;
    if (outcome.reason === 'not_found') return null;
    if (options.expectedVersion !== undefined) throw preconditionFailed();
    if (attempt >= MAX_UPDATE_ATTEMPTS) {
      throw new FrameworkError('CONFLICT', 'The record is being changed by someone else; try again.');
    }
  }
}

/** Refusal for a write whose If-Match version is no longer current. */
export function preconditionFailed(): FrameworkError {
  return new FrameworkError('PRECONDITION_FAILED', 'The record has changed since it was read.');
}

/** {@link ScopedRecords} for handler code: records of one resource in the caller's tenant. */
export function scopedRecords(
  store: ResourceStore,
  resolve: (type: string) => CompiledResource,
  resource: CompiledResource,
  context: ExecutionContext,
): ScopedRecords {
  const scope = scopeFor(resource, context);
  const def = resource.storeDefinition;
  return {
    async get(id) {
      const stored = await store.findById(def, scope, id);
      return stored ? toApiRecord(resource, stored) : null;
    },
    async list(query = {}) {
      const page = await store.list(def, scope, {
        filters: query.filters ?? {},
        limit: Math.min(query.limit ?? 100, 1_000),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      return { data: page.records.map((r) => toApiRecord(resource, r)), nextCursor: page.nextCursor };
    },
    async create(data, options = {}) {
      return toApiRecord(resource, await insertRecord(store, resolve, resource, context, data, options.id));
    },
    async update(id, patch, options = {}) {
      const stored = await patchRecord(store, resolve, resource, context, id, patch, options);
      return stored ? toApiRecord(resource, stored) : null;
    },
    countBy(field, filters = {}) {
      return store.countBy(def, scope, field, filters);
    },
  };
}
