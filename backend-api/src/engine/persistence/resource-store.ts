import type { SqlExecutor } from './sql-database.js';

/** Whose records a query may see. Every store method takes one; there is no unscoped read or write. */
export type TenantScope =
  | { kind: 'application' }
  | { kind: 'organization'; organizationId: string }
  | { kind: 'user'; userId: string };

/** A filterable field and how its JSON value is typed. */
export interface StoreFilterField {
  name: string;
  kind: 'string' | 'number' | 'boolean';
}

/** What the store needs to know about one resource type to create and query its table. */
export interface ResourceStoreDefinition {
  resourceType: string;
  /** Scope kind of every record of this type. */
  scope: TenantScope['kind'];
  filterFields: readonly StoreFilterField[];
  /** Text fields indexed for full-text SEARCH (may be empty: SEARCH then answers from filters only). */
  searchFields: readonly string[];
}

/** Who wrote a record. Machine principals have no user id. */
export interface RecordCreator {
  userId: string | null;
  principalType: string;
  principalId: string;
}

/** A stored record: system columns plus the resource's own fields in `data`. */
export interface StoredRecord {
  id: string;
  organizationId: string | null;
  userId: string | null;
  createdByUserId: string | null;
  createdByPrincipal: { type: string; id: string };
  createdAt: string;
  updatedAt: string;
  version: number;
  data: Record<string, unknown>;
}

/** Extra conditions a caller adds on top of the tenant scope. */
export interface RecordConstraint {
  /** Only records created by this user (owner-only variants). */
  createdByUserId?: string;
}

/**
 * Equality filters on declared fields; `null` matches a JSON null. A name that is not a declared
 * filter field, or a value of another kind than declared, is refused with `VALIDATION_FAILED`.
 */
export type StoreFilters = Readonly<Record<string, string | number | boolean | null>>;

/** One page of a listing. `nextCursor` is opaque and `null` on the last page. */
export interface StorePage {
  records: StoredRecord[];
  nextCursor: string | null;
}

/**
 * Outcome of a conditional write. `not_found` also answers for a record outside the scope or the
 * constraint (never `version_conflict`, which would reveal that it exists).
 */
export type StoreWriteOutcome<T> = { ok: true; value: T } | { ok: false; reason: 'not_found' | 'version_conflict' };

/**
 * The persistence adapter contract every backend (PGlite, PostgreSQL, later MongoDB) implements and the
 * shared contract suite checks. Tenancy is enforced here: each query filters by the scope it is given.
 */
export interface ResourceStore {
  /**
   * Creates or migrates the tables of these resource types. Idempotent; safe with several replicas.
   * Throws an `Error` naming the type and the fix for a definition no table can hold (type pattern,
   * identifier length, two types mapping to one table, field names that are not identifiers).
   */
  ensureSchema(definitions: readonly ResourceStoreDefinition[]): Promise<void>;
  /** Stores a new record at version 1. An id that already exists is refused with `FrameworkError('CONFLICT')`. */
  insert(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    record: { id?: string; data: Record<string, unknown>; creator: RecordCreator },
  ): Promise<StoredRecord>;
  findById(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    constraint?: RecordConstraint,
  ): Promise<StoredRecord | null>;
  /**
   * The tenant a record belongs to, or null. The one deliberate exception to scoped reads: the engine
   * uses it to resolve a presented credential (API key, OAuth client) to its own tenant before reading it
   * with that scope. Never reachable from an operation.
   */
  locate(definition: ResourceStoreDefinition, id: string): Promise<TenantScope | null>;
  /**
   * Newest first. Throws `FrameworkError('VALIDATION_FAILED')` for a cursor it did not issue and for
   * a `limit` outside 1..1000.
   */
  list(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    query: { filters: StoreFilters; limit: number; cursor?: string; constraint?: RecordConstraint },
  ): Promise<StorePage>;
  /**
   * Best match first; ties newest first. Blank text, or a type without `searchFields`, answers from
   * the filters alone, newest first. Pages stop (`nextCursor: null`) past 10 000 results.
   */
  search(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    query: { text: string; filters: StoreFilters; limit: number; cursor?: string; constraint?: RecordConstraint },
  ): Promise<StorePage>;
  /**
   * Number of records per distinct value of `field` (for aggregate custom operations). `field` must be
   * a declared filter field; records without it count under `null`.
   */
  countBy(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    field: string,
    filters: StoreFilters,
  ): Promise<Map<string | number | boolean | null, number>>;
  /** Replaces `data` if the stored version equals `expectedVersion`; bumps the version. */
  update(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    change: { data: Record<string, unknown>; expectedVersion: number; constraint?: RecordConstraint },
  ): Promise<StoreWriteOutcome<StoredRecord>>;
  /** Deletes if present (and at `expectedVersion` when given). */
  delete(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    condition?: { expectedVersion?: number; constraint?: RecordConstraint },
  ): Promise<StoreWriteOutcome<StoredRecord>>;
  /** Runs `fn` with a store bound to one transaction (multi-row writes). A nested call joins the open transaction. */
  transaction<T>(fn: (store: ResourceStore, tx: SqlExecutor) => Promise<T>): Promise<T>;
}
