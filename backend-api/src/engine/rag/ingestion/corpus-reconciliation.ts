import { fileIdsIn } from '../../files/index.js';
import type { Logger } from '../../logging/index.js';
import { toStoredRecord, type ResourceRow, type SqlDatabase, type SqlExecutor } from '../../persistence/index.js';
import { chunkingHash, sourceHash } from '../chunking/text-chunker.js';
import { RAG_CHUNKS_TABLE as CHUNKS, RAG_SOURCES_TABLE as SOURCES } from '../rag.migrations.js';
import type { CorpusDefinition } from './corpus-definitions.js';
import type { PendingFilesSummary, RagIngestionService } from './rag-ingestion.service.js';

/** What one sweep did, per concern. */
export interface CorpusSweepSummary {
  /** Records whose chunks were missing or stale (content or chunking changed) and were rebuilt. */
  rebuiltRecords: number;
  /** Chunk and source rows of records that no longer exist, or of fields that are no longer sources. */
  removedOrphans: number;
  /** Chunk and source rows whose tenant stamps no longer matched their record. */
  repairedStamps: number;
  files: PendingFilesSummary;
  durationMs: number;
}

const PAGE = 500;
const RECORD_COLUMNS =
  'id, seq, organization_id, user_id, created_by_user_id, created_by_type, created_by_id, created_at, updated_at, version, data';

/** Whether a record's corpus fields differ from what was ingested (missing, changed text, changed chunking). */
function needsWork(
  corpus: CorpusDefinition,
  row: ResourceRow,
  states: Map<string, { sourceHash: string; chunkingHash: string; status: string }>,
): boolean {
  for (const field of corpus.fields) {
    const value = row.data[field.name];
    const state = states.get(field.name);
    const fileIds = field.kind === 'file' ? fileIdsIn(value) : [];
    const source =
      field.kind === 'file'
        ? fileIds.length > 0
          ? JSON.stringify(fileIds)
          : ''
        : typeof value === 'string'
          ? value
          : '';
    if (source.trim() === '') {
      if (state) return true;
      continue;
    }
    if (!state || state.sourceHash !== sourceHash(source) || state.chunkingHash !== chunkingHash(field.options))
      return true;
    if (field.kind === 'text' && state.status !== 'indexed') return true;
  }
  return false;
}

async function removeOrphans(tx: SqlExecutor, corpus: CorpusDefinition): Promise<number> {
  const fields = corpus.fields.map((field) => field.name);
  let removed = 0;
  for (const table of [CHUNKS, SOURCES]) {
    const { affectedRows } = await tx.query(
      `DELETE FROM ${table} AS c WHERE c.resource_type = $1
  AND (c.field <> ALL($2::text[]) OR NOT EXISTS (SELECT 1 FROM ${corpus.table} r WHERE r.id = c.resource_id))`,
      [corpus.resourceType, fields],
    );
    removed += affectedRows;
  }
  return removed;
}

async function repairStamps(tx: SqlExecutor, corpus: CorpusDefinition): Promise<number> {
  let repaired = 0;
  for (const table of [CHUNKS, SOURCES]) {
    const { affectedRows } = await tx.query(
      `UPDATE ${table} AS c SET organization_id = r.organization_id, user_id = r.user_id, created_by_user_id = r.created_by_user_id
FROM ${corpus.table} r WHERE c.resource_type = $1 AND r.id = c.resource_id
  AND (c.organization_id IS DISTINCT FROM r.organization_id OR c.user_id IS DISTINCT FROM r.user_id
    OR c.created_by_user_id IS DISTINCT FROM r.created_by_user_id)`,
      [corpus.resourceType],
    );
    repaired += affectedRows;
  }
  return repaired;
}

/** Rebuilds the records of one corpus whose chunks are missing or stale, page by page. */
async function rebuildStale(
  database: SqlDatabase,
  ingestion: RagIngestionService,
  corpus: CorpusDefinition,
): Promise<number> {
  let rebuilt = 0;
  let after = '0';
  for (;;) {
    const { rows } = await database.query<ResourceRow>(
      `SELECT ${RECORD_COLUMNS} FROM ${corpus.table} WHERE seq > $1::bigint ORDER BY seq LIMIT ${PAGE}`,
      [after],
    );
    if (rows.length === 0) return rebuilt;
    after = rows.at(-1)?.seq ?? after;
    const { rows: sources } = await database.query<{
      resource_id: string;
      field: string;
      source_hash: string;
      chunking_hash: string;
      status: string;
    }>(
      `SELECT resource_id, field, source_hash, chunking_hash, status FROM ${SOURCES} WHERE resource_type = $1 AND resource_id = ANY($2::text[])`,
      [corpus.resourceType, rows.map((row) => row.id)],
    );
    const states = new Map<string, Map<string, { sourceHash: string; chunkingHash: string; status: string }>>();
    for (const s of sources) {
      const byField = states.get(s.resource_id) ?? new Map();
      byField.set(s.field, { sourceHash: s.source_hash, chunkingHash: s.chunking_hash, status: s.status });
      states.set(s.resource_id, byField);
    }
    for (const row of rows) {
      if (!needsWork(corpus, row, states.get(row.id) ?? new Map())) continue;
      const done = await database.transaction(async (tx) => {
        // Locked and read again: a write racing the sweep is either before this (and seen) or after it (and wins).
        const { rows: current } = await tx.query<ResourceRow>(
          `SELECT ${RECORD_COLUMNS} FROM ${corpus.table} WHERE id = $1 FOR UPDATE`,
          [row.id],
        );
        const record = current[0];
        if (!record) return false;
        await ingestion.ingestRecord(tx, corpus, toStoredRecord(record));
        return true;
      });
      if (done) rebuilt++;
    }
  }
}

/**
 * The hourly sweep: for every corpus, removes orphan chunk sets (deleted records, fields no longer sources),
 * repairs tenant stamps, rebuilds missing or stale sets through the same ingestion as the write path (so a
 * chunking change converges), then extracts pending file sources. Logs one structured summary.
 */
export async function sweepCorpora(
  deps: { database: SqlDatabase; ingestion: RagIngestionService; logger: Logger },
  options: { fileBatchSize: number },
): Promise<CorpusSweepSummary> {
  const started = Date.now();
  let removedOrphans = 0;
  let repairedStamps = 0;
  let rebuiltRecords = 0;
  for (const corpus of deps.ingestion.listCorpora()) {
    const cleaned = await deps.database.transaction(async (tx) => [
      await removeOrphans(tx, corpus),
      await repairStamps(tx, corpus),
    ]);
    removedOrphans += cleaned[0] ?? 0;
    repairedStamps += cleaned[1] ?? 0;
    rebuiltRecords += await rebuildStale(deps.database, deps.ingestion, corpus);
  }
  const files = await deps.ingestion.processPendingFiles(deps.database, { batchSize: options.fileBatchSize });
  const summary = { rebuiltRecords, removedOrphans, repairedStamps, files, durationMs: Date.now() - started };
  deps.logger.info('rag corpus sweep finished', { ...summary });
  return summary;
}
