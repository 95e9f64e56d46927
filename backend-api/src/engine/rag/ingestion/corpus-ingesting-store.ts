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
} from '../../persistence/index.js';
import type { RagIngestionService } from './rag-ingestion.service.js';

/**
 * A {@link ResourceStore} whose writes of corpus resources ingest in the write's own transaction: a record and
 * its chunks commit together or not at all, whichever path wrote (REST, MCP, tools, custom handlers). Reads and
 * writes of other resource types pass straight through.
 */
export class CorpusIngestingStore extends ForwardingResourceStore {
  constructor(
    inner: ResourceStore,
    private readonly ingestion: RagIngestionService,
  ) {
    super(inner);
  }

  override insert(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    record: { id?: string; data: Record<string, unknown>; creator: RecordCreator },
  ): Promise<StoredRecord> {
    const corpus = this.ingestion.corpusOf(definition.resourceType);
    if (!corpus) return this.inner.insert(definition, scope, record);
    return this.inner.transaction(async (store, tx) => {
      const stored = await store.insert(definition, scope, record);
      await this.ingestion.ingestRecord(tx, corpus, stored, { fresh: true });
      return stored;
    });
  }

  override update(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    change: { data: Record<string, unknown>; expectedVersion: number; constraint?: RecordConstraint },
  ): Promise<StoreWriteOutcome<StoredRecord>> {
    const corpus = this.ingestion.corpusOf(definition.resourceType);
    if (!corpus) return this.inner.update(definition, scope, id, change);
    return this.inner.transaction(async (store, tx) => {
      const outcome = await store.update(definition, scope, id, change);
      if (outcome.ok) await this.ingestion.ingestRecord(tx, corpus, outcome.value);
      return outcome;
    });
  }

  override delete(
    definition: ResourceStoreDefinition,
    scope: TenantScope,
    id: string,
    condition?: { expectedVersion?: number; constraint?: RecordConstraint },
  ): Promise<StoreWriteOutcome<StoredRecord>> {
    const corpus = this.ingestion.corpusOf(definition.resourceType);
    if (!corpus) return this.inner.delete(definition, scope, id, condition);
    return this.inner.transaction(async (store, tx) => {
      const outcome = await store.delete(definition, scope, id, condition);
      if (outcome.ok) await this.ingestion.removeRecord(tx, corpus, id);
      return outcome;
    });
  }

  /** The transaction's store ingests too, so writes grouped in one transaction keep their chunks with them. */
  override transaction<T>(fn: (store: ResourceStore, tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.inner.transaction((store, tx) =>
      fn(store === this.inner ? this : new CorpusIngestingStore(store, this.ingestion), tx),
    );
  }
}

/** `store`, ingesting the writes of corpus resources in their transactions (unchanged when there is no corpus). */
export function withCorpusIngestion(store: ResourceStore, ingestion: RagIngestionService): ResourceStore {
  return ingestion.listCorpora().length === 0 ? store : new CorpusIngestingStore(store, ingestion);
}
