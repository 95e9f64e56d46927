import type { Clock } from '../container/index.js';
import type { Logger } from '../logging/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import { drainEmbeddings, embeddingBacklog, type EmbeddingDrainSummary } from './embeddings/embedding-drain.js';
import type { EmbeddingsBackendService } from './embeddings/embeddings-backend.service.js';
import { sweepCorpora, type CorpusSweepSummary } from './ingestion/corpus-reconciliation.js';
import type { PendingFilesSummary, RagIngestionService } from './ingestion/rag-ingestion.service.js';
import { RAG_SOURCES_TABLE } from './rag.migrations.js';

/** Chunks embedded by one scheduled drain at most. */
export const RAG_EMBEDDING_DRAIN_BATCH_SIZE = 256;
/** File sources extracted by one sweep at most. */
export const RAG_SWEEP_FILE_BATCH_SIZE = 50;

/** How far one corpus field of one record got (see {@link RagCorpusMaintenance.sourceStatesOf}). */
export interface RagSourceStatus {
  field: string;
  kind: 'text' | 'file';
  status: 'pending' | 'indexed' | 'failed';
  failureReason: string | null;
  chunkCount: number;
  updatedAt: string;
}

/** Options of {@link RagCorpusMaintenance}. */
export interface RagCorpusMaintenanceOptions {
  database: SqlDatabase;
  ingestion: RagIngestionService;
  embeddings: EmbeddingsBackendService;
  logger: Logger;
  clock: Clock;
}

/**
 * The two converging background mechanisms of the corpora, as plain calls a scheduler runs: the embedding drain
 * (every 5 minutes, a bounded batch) and the sweep (hourly). Each logs one structured summary.
 */
export class RagCorpusMaintenance {
  private readonly logger: Logger;

  constructor(private readonly options: RagCorpusMaintenanceOptions) {
    this.logger = options.logger.child({ component: 'rag' });
  }

  /** Fills or refreshes at most `batchSize` vectors (see {@link drainEmbeddings}). */
  async drainEmbeddings(options: { batchSize?: number } = {}): Promise<EmbeddingDrainSummary> {
    const summary = await drainEmbeddings(
      {
        database: this.options.database,
        embeddings: this.options.embeddings,
        logger: this.logger,
        now: () => this.options.clock.now(),
      },
      { batchSize: options.batchSize ?? RAG_EMBEDDING_DRAIN_BATCH_SIZE },
    );
    this.logger.info('rag embedding drain finished', { ...summary });
    return summary;
  }

  /** Rebuilds stale and missing chunk sets, removes orphans, repairs stamps, extracts pending files. */
  async sweep(options: { fileBatchSize?: number } = {}): Promise<CorpusSweepSummary & { embeddingBacklog: number }> {
    const summary = await sweepCorpora(
      { database: this.options.database, ingestion: this.options.ingestion, logger: this.logger },
      { fileBatchSize: options.fileBatchSize ?? RAG_SWEEP_FILE_BATCH_SIZE },
    );
    return { ...summary, embeddingBacklog: await this.embeddingBacklog() };
  }

  /** Extracts, chunks and indexes at most `batchSize` pending file sources. */
  async extractPendingFiles(options: { batchSize?: number } = {}): Promise<PendingFilesSummary> {
    const summary = await this.options.ingestion.processPendingFiles(this.options.database, {
      batchSize: options.batchSize ?? RAG_SWEEP_FILE_BATCH_SIZE,
    });
    this.logger.info('rag file extraction finished', { ...summary });
    return summary;
  }

  /**
   * The ingestion state of each corpus field of one record, for a page or tool that shows it. The caller must have
   * been allowed to read the record: this reads by id and applies no tenant condition of its own.
   */
  async sourceStatesOf(resourceType: string, resourceId: string): Promise<RagSourceStatus[]> {
    const { rows } = await this.options.database.query<{
      field: string;
      kind: 'text' | 'file';
      status: 'pending' | 'indexed' | 'failed';
      failure_reason: string | null;
      chunk_count: number;
      updated_at: string | Date;
    }>(
      `SELECT field, kind, status, failure_reason, chunk_count, updated_at FROM ${RAG_SOURCES_TABLE}
       WHERE resource_type = $1 AND resource_id = $2 ORDER BY field`,
      [resourceType, resourceId],
    );
    return rows.map((row) => ({
      field: row.field,
      kind: row.kind,
      status: row.status,
      failureReason: row.failure_reason,
      chunkCount: Number(row.chunk_count),
      updatedAt: new Date(row.updated_at).toISOString(),
    }));
  }

  /** The ingestion service whose corpora this maintains. */
  get ingestion(): RagIngestionService {
    return this.options.ingestion;
  }

  /** Chunks without a vector of the current binding. */
  embeddingBacklog(): Promise<number> {
    const resolution = this.options.embeddings.resolveBinding();
    return embeddingBacklog(this.options.database, resolution.status === 'bound' ? resolution.binding : undefined);
  }
}
