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
import type { SqlExecutor } from './sql-database.js';

/**
 * A {@link ResourceStore} that hands every call to `inner`: the base of the store wrappers that add a rule to some
 * calls (file references, corpus ingestion) and override only those.
 */
export abstract class ForwardingResourceStore implements ResourceStore {
  constructor(protected readonly inner: ResourceStore) {}

  ensureSchema(definitions: readonly ResourceStoreDefinition[]): Promise<void> {
    return this.inner.ensureSchema(definitions);
  }

  insert(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    record: { id?: string; data: Record<string, unknown>; creator: RecordCreator },
  ): Promise<StoredRecord> {
    return this.inner.insert(definition, scope, record);
  }

  findById(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    constraint?: RecordConstraint,
  ): Promise<StoredRecord | null> {
    return this.inner.findById(definition, scope, id, constraint);
  }

  locate(definition: ResourceStoreDefinition, id: string): Promise<TenantScope | null> {
    return this.inner.locate(definition, id);
  }

  list(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    query: { filters: StoreFilters; limit: number; cursor?: string; constraint?: RecordConstraint },
  ): Promise<StorePage> {
    return this.inner.list(definition, scope, query);
  }

  search(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    query: { text: string; filters: StoreFilters; limit: number; cursor?: string; constraint?: RecordConstraint },
  ): Promise<StorePage> {
    return this.inner.search(definition, scope, query);
  }

  countBy(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    field: string,
    filters: StoreFilters,
  ): Promise<Map<string | number | boolean | null, number>> {
    return this.inner.countBy(definition, scope, field, filters);
  }

  update(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    change: { data: Record<string, unknown>; expectedVersion: number; constraint?: RecordConstraint },
  ): Promise<StoreWriteOutcome<StoredRecord>> {
    return this.inner.update(definition, scope, id, change);
  }

  delete(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    condition?: { expectedVersion?: number; constraint?: RecordConstraint },
  ): Promise<StoreWriteOutcome<StoredRecord>> {
    return this.inner.delete(definition, scope, id, condition);
  }

  transaction<T>(fn: (store: ResourceStore, tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.inner.transaction(fn);
  }
}
