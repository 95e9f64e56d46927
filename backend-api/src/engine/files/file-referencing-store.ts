import {
  ForwardingResourceStore,
  type RecordConstraint,
  type RecordCreator,
  type ResourceStore,
  type ResourceStoreDefinition,
  type SqlExecutor,
  type StoredRecord,
  type StoreWriteOutcome,
  type TenantScope,
} from '../persistence/index.js';
import type { FileReferenceCheck } from './file-reference.check.js';

type Check = Pick<FileReferenceCheck, 'checkWrite' | 'namesFiles' | 'declaresFileFields'>;

/**
 * A {@link ResourceStore} whose writes of records with `z_file` fields are refused when they name a file the
 * record's tenant did not upload for that field: the one place every write path passes through (REST, MCP, custom
 * handlers' `utils.records`, agent tools, engine services). Reads and writes of other types pass straight through.
 */
export class FileReferencingStore extends ForwardingResourceStore {
  constructor(
    inner: ResourceStore,
    private readonly check: Check,
    /** The open transaction this store is bound to (the check reads inside it). */
    private readonly executor?: SqlExecutor,
  ) {
    super(inner);
  }

  override async insert(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    record: { id?: string; data: Record<string, unknown>; creator: RecordCreator },
  ): Promise<StoredRecord> {
    await this.check.checkWrite(definition.resourceType, scope, record.data, undefined, this.executor);
    return this.inner.insert(definition, scope, record);
  }

  /**
   * An update carries the whole record: the ids it names are compared with the stored version it replaces, and
   * only the newly named ones are checked. A version other than the expected one is left to the inner store to
   * refuse (versions only grow, so the write cannot land on a record this check did not see).
   */
  override async update(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    change: { data: Record<string, unknown>; expectedVersion: number; constraint?: RecordConstraint },
  ): Promise<StoreWriteOutcome<StoredRecord>> {
    if (this.check.namesFiles(definition.resourceType, change.data)) {
      const current = await this.inner.findById(definition, scope, id, change.constraint);
      if (current && current.version === change.expectedVersion) {
        await this.check.checkWrite(definition.resourceType, scope, change.data, current.data, this.executor);
      }
    }
    return this.inner.update(definition, scope, id, change);
  }

  /** The transaction's store checks too, reading the file records inside that transaction. */
  override transaction<T>(fn: (store: ResourceStore, tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.inner.transaction((store, tx) => fn(new FileReferencingStore(store, this.check, tx), tx));
  }
}

/**
 * `store`, refusing writes that name files their record's tenant did not upload for the field (unchanged when no
 * resource declares a file field, so such applications' writes pay nothing).
 */
export function withFileReferences(store: ResourceStore, check: Check): ResourceStore {
  return check.declaresFileFields() ? new FileReferencingStore(store, check) : store;
}
