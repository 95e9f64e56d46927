import { randomUUID } from 'node:crypto';
import { FrameworkError } from '../errors/index.js';
import { createSilentLogger, type Logger } from '../logging/index.js';
import {
  decodeListCursor,
  decodeSearchCursor,
  encodeListCursor,
  encodeSearchCursor,
  MAX_SEARCH_OFFSET,
} from './resource-cursor.js';
import { syncResourceTables } from './resource-schema-sync.js';
import {
  statementsFor,
  toStoredRecord,
  type ParamValues,
  type ResourceRow,
  type Statement,
} from './resource-statements.js';
import type {
  RecordConstraint,
  RecordCreator,
  ResourceStore,
  ResourceStoreDefinition,
  StoredRecord,
  StoreFilters,
  StorePage,
  StoreWriteOutcome,
  TenantScope,
} from './resource-store.js';
import {
  assertExpectedVersion,
  assertPageLimit,
  assertRecordId,
  assertSearchText,
  declaredFilterField,
  filterDocument,
  scopeIdOf,
} from './resource-store-inputs.js';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';

/** Options of {@link SqlResourceStore}. */
export interface SqlResourceStoreOptions {
  database: SqlDatabase;
  /** Clock of `createdAt`/`updatedAt`. Default `() => new Date()`. */
  now?: () => Date;
  /** Id of records inserted without one. Default `crypto.randomUUID`. */
  generateId?: () => string;
  /** Defaults to a silent logger. */
  logger?: Logger;
}

const UNIQUE_VIOLATION = '23505';
/** Store statements come from a fixed set of variants per definition, so they may stay prepared. */
const PREPARED = { prepare: true } as const;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;
}

type CountKey = string | number | boolean | null;

/** A JSON value as a count key; structured values (not expected for filter fields) count by their JSON text. */
function countKey(value: unknown): CountKey {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  return JSON.stringify(value);
}

/**
 * {@link ResourceStore} over a {@link SqlDatabase}: one table per resource type, the same statements on
 * PGlite and PostgreSQL, tenant scope in every statement.
 *
 * @example
 * const store = new SqlResourceStore({ database: await createPgliteDatabase() });
 * await store.ensureSchema([todos]);
 * const todo = await store.insert(todos, { kind: 'organization', organizationId: 'org_1' }, { data: { title: 'Ship' }, creator });
 */
export class SqlResourceStore implements ResourceStore {
  private readonly now: () => Date;
  private readonly generateId: () => string;
  private readonly logger: Logger;

  /** `transactionExecutor` is internal: it binds the store to one open transaction (see {@link transaction}). */
  constructor(
    private readonly options: SqlResourceStoreOptions,
    private readonly transactionExecutor?: SqlExecutor,
  ) {
    this.now = options.now ?? (() => new Date());
    this.generateId = options.generateId ?? randomUUID;
    this.logger = options.logger ?? createSilentLogger();
  }

  private get executor(): SqlExecutor {
    return this.transactionExecutor ?? this.options.database;
  }

  private async run<TRow = ResourceRow>(statement: Statement, values: ParamValues): Promise<TRow[]> {
    const { rows } = await this.executor.query<TRow>(statement.text, statement.bind(values), PREPARED);
    return rows;
  }

  async ensureSchema(definitions: readonly ResourceStoreDefinition[]): Promise<void> {
    if (this.transactionExecutor !== undefined)
      return syncResourceTables(this.transactionExecutor, definitions, this.logger);
    await this.options.database.transaction((tx) => syncResourceTables(tx, definitions, this.logger));
  }

  async insert(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    record: { id?: string; data: Record<string, unknown>; creator: RecordCreator },
  ): Promise<StoredRecord> {
    const id = record.id ?? this.generateId();
    assertRecordId(id);
    const { creator } = record;
    const values: ParamValues = {
      id,
      scopeId: scopeIdOf(scope),
      creatorUserId: creator.userId,
      creatorType: creator.principalType,
      creatorId: creator.principalId,
      now: this.now().toISOString(),
      data: JSON.stringify(record.data),
    };
    try {
      const [row] = await this.run(statementsFor(definition).insert(scope.kind), values);
      if (row === undefined) throw new Error('INSERT ... RETURNING returned no row.');
      return toStoredRecord(row);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new FrameworkError('CONFLICT', 'A record with this id already exists.', { cause: error });
      throw error;
    }
  }

  async findById(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    constraint?: RecordConstraint,
  ): Promise<StoredRecord | null> {
    const ownerId = constraint?.createdByUserId;
    const statement = statementsFor(definition).findById(scope.kind, ownerId !== undefined);
    const [row] = await this.run(statement, { id, scopeId: scopeIdOf(scope), ownerId });
    return row === undefined ? null : toStoredRecord(row);
  }

  async locate(definition: ResourceStoreDefinition, id: string): Promise<TenantScope | null> {
    assertRecordId(id);
    const { rows } = await this.executor.query<{ organization_id: string | null; user_id: string | null }>(
      statementsFor(definition).locate().text,
      [id],
      PREPARED,
    );
    const row = rows[0];
    if (!row) return null;
    if (row.organization_id !== null) return { kind: 'organization', organizationId: row.organization_id };
    if (row.user_id !== null) return { kind: 'user', userId: row.user_id };
    return { kind: 'application' };
  }

  async list(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    query: { filters: StoreFilters; limit: number; cursor?: string; constraint?: RecordConstraint },
  ): Promise<StorePage> {
    assertPageLimit(query.limit);
    const afterSeq = query.cursor === undefined ? undefined : decodeListCursor(definition.resourceType, query.cursor);
    const filter = filterDocument(definition, query.filters);
    const ownerId = query.constraint?.createdByUserId;
    const statement = statementsFor(definition).list(
      scope.kind,
      ownerId !== undefined,
      filter !== undefined,
      afterSeq !== undefined,
    );
    const rows = await this.run(statement, {
      scopeId: scopeIdOf(scope),
      ownerId,
      filter,
      afterSeq,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const more = rows.length > query.limit && last !== undefined;
    return {
      records: page.map(toStoredRecord),
      nextCursor: more ? encodeListCursor(definition.resourceType, last.seq) : null,
    };
  }

  async search(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    query: { text: string; filters: StoreFilters; limit: number; cursor?: string; constraint?: RecordConstraint },
  ): Promise<StorePage> {
    assertPageLimit(query.limit);
    assertSearchText(query.text);
    const offset = query.cursor === undefined ? 0 : decodeSearchCursor(definition.resourceType, query.cursor);
    const filter = filterDocument(definition, query.filters);
    const ownerId = query.constraint?.createdByUserId;
    const ranked = definition.searchFields.length > 0 && query.text.trim() !== '';
    const statement = statementsFor(definition).search(scope.kind, ownerId !== undefined, filter !== undefined, ranked);
    const values = { scopeId: scopeIdOf(scope), ownerId, filter, text: query.text, limit: query.limit + 1, offset };
    const rows = await this.run(statement, values);
    const nextOffset = offset + query.limit;
    const more = rows.length > query.limit && nextOffset <= MAX_SEARCH_OFFSET;
    return {
      records: rows.slice(0, query.limit).map(toStoredRecord),
      nextCursor: more ? encodeSearchCursor(definition.resourceType, nextOffset) : null,
    };
  }

  async countBy(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    field: string,
    filters: StoreFilters,
  ): Promise<Map<CountKey, number>> {
    declaredFilterField(definition, field, 'field');
    const filter = filterDocument(definition, filters);
    const statement = statementsFor(definition).countBy(scope.kind, filter !== undefined);
    const rows = await this.run<{ value: unknown; count: string }>(statement, {
      scopeId: scopeIdOf(scope),
      field,
      filter,
    });
    const counts = new Map<CountKey, number>();
    for (const row of rows) {
      const key = countKey(row.value);
      counts.set(key, (counts.get(key) ?? 0) + Number(row.count));
    }
    return counts;
  }

  async update(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    change: { data: Record<string, unknown>; expectedVersion: number; constraint?: RecordConstraint },
  ): Promise<StoreWriteOutcome<StoredRecord>> {
    assertExpectedVersion(change.expectedVersion);
    const ownerId = change.constraint?.createdByUserId;
    const statements = statementsFor(definition);
    const values: ParamValues = {
      id,
      scopeId: scopeIdOf(scope),
      ownerId,
      expectedVersion: change.expectedVersion,
      data: JSON.stringify(change.data),
      now: this.now().toISOString(),
    };
    const [row] = await this.run(statements.update(scope.kind, ownerId !== undefined), values);
    if (row !== undefined) return { ok: true, value: toStoredRecord(row) };
    return this.refusal(statements.probe(scope.kind, ownerId !== undefined), values);
  }

  async delete(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    condition?: { expectedVersion?: number; constraint?: RecordConstraint },
  ): Promise<StoreWriteOutcome<StoredRecord>> {
    const expectedVersion = condition?.expectedVersion;
    if (expectedVersion !== undefined) assertExpectedVersion(expectedVersion);
    const ownerId = condition?.constraint?.createdByUserId;
    const statements = statementsFor(definition);
    const values: ParamValues = { id, scopeId: scopeIdOf(scope), ownerId, expectedVersion };
    const [row] = await this.run(
      statements.delete(scope.kind, ownerId !== undefined, expectedVersion !== undefined),
      values,
    );
    if (row !== undefined) return { ok: true, value: toStoredRecord(row) };
    return this.refusal(statements.probe(scope.kind, ownerId !== undefined), values);
  }

  /** Why a conditional write touched nothing: the record is visible (so its version moved) or it is not. */
  private async refusal(probe: Statement, values: ParamValues): Promise<StoreWriteOutcome<StoredRecord>> {
    const rows = await this.run<{ version: number }>(probe, values);
    return { ok: false, reason: rows.length > 0 ? 'version_conflict' : 'not_found' };
  }

  /** A nested call joins the open transaction rather than starting another one. */
  async transaction<T>(fn: (store: ResourceStore, tx: SqlExecutor) => Promise<T>): Promise<T> {
    if (this.transactionExecutor !== undefined) return fn(this, this.transactionExecutor);
    return this.options.database.transaction((tx) => fn(new SqlResourceStore(this.options, tx), tx));
  }
}
