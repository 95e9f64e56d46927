import type { SqlExecutor } from '../../persistence/index.js';
import type { TextChunk } from '../chunking/text-chunker.js';
import { RAG_CHUNKS_TABLE as CHUNKS, RAG_SOURCES_TABLE as SOURCES } from '../rag.migrations.js';

/** The tenant stamps of a record, copied onto its chunks so retrieval filters them like the store does. */
export interface TenantStamps {
  organizationId: string | null;
  userId: string | null;
  createdByUserId: string | null;
}

/** Where one corpus field of one record stands. */
export interface SourceState {
  sourceHash: string;
  chunkingHash: string;
  status: 'indexed' | 'pending' | 'failed';
  fileIds: string[] | null;
}

/** Identifies one corpus field of one record. */
export interface SourceKey {
  resourceType: string;
  resourceId: string;
  field: string;
}

/** A source row to write. */
export interface SourceWrite extends SourceKey, TenantStamps {
  kind: 'text' | 'file';
  sourceHash: string;
  chunkingHash: string;
  fileIds?: readonly string[] | null;
  status: SourceState['status'];
  failureReason?: string | null;
  /** The bound a `limit_exceeded` failure met (`inflated_bytes`, `memory`, ...). */
  failureDetail?: string | null;
  retryable?: boolean;
  chunkCount: number;
  now: string;
}

/** The stored state of every corpus field of a record, by field. */
export async function readSources(
  tx: SqlExecutor,
  resourceType: string,
  resourceId: string,
): Promise<Map<string, SourceState>> {
  const { rows } = await tx.query<{
    field: string;
    source_hash: string;
    chunking_hash: string;
    status: SourceState['status'];
    file_ids: string[] | null;
  }>(
    `SELECT field, source_hash, chunking_hash, status, file_ids FROM ${SOURCES} WHERE resource_type = $1 AND resource_id = $2`,
    [resourceType, resourceId],
    { prepare: true },
  );
  return new Map(
    rows.map((row) => [
      row.field,
      { sourceHash: row.source_hash, chunkingHash: row.chunking_hash, status: row.status, fileIds: row.file_ids },
    ]),
  );
}

const SOURCE_COLUMNS =
  'resource_type, resource_id, field, kind, organization_id, user_id, created_by_user_id, source_hash, chunking_hash, file_ids, status, failure_reason, failure_detail, retryable, chunk_count, attempts, updated_at';

/** Inserts or replaces the state of corpus fields, in one statement. */
export async function writeSources(tx: SqlExecutor, sources: readonly SourceWrite[]): Promise<void> {
  if (sources.length === 0) return;
  const params: unknown[] = [];
  const rows = sources.map((source) => {
    const values = [
      source.resourceType,
      source.resourceId,
      source.field,
      source.kind,
      source.organizationId,
      source.userId,
      source.createdByUserId,
      source.sourceHash,
      source.chunkingHash,
      source.fileIds ? [...source.fileIds] : null,
      source.status,
      source.failureReason ?? null,
      source.failureDetail ?? null,
      source.retryable ?? false,
      source.chunkCount,
      source.now,
    ];
    const first = params.length;
    params.push(...values);
    const p = (offset: number) => `$${first + offset + 1}`;
    return `(${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}::text[], ${p(10)}, ${p(11)}, ${p(12)}, ${p(13)}::boolean, ${p(14)}::int4, 0, ${p(15)}::timestamptz)`;
  });
  await tx.query(
    `INSERT INTO ${SOURCES} (${SOURCE_COLUMNS}) VALUES ${rows.join(', ')}
ON CONFLICT (resource_type, resource_id, field) DO UPDATE SET kind = EXCLUDED.kind,
  organization_id = EXCLUDED.organization_id, user_id = EXCLUDED.user_id, created_by_user_id = EXCLUDED.created_by_user_id,
  source_hash = EXCLUDED.source_hash, chunking_hash = EXCLUDED.chunking_hash, file_ids = EXCLUDED.file_ids,
  status = EXCLUDED.status, failure_reason = EXCLUDED.failure_reason, failure_detail = EXCLUDED.failure_detail,
  retryable = EXCLUDED.retryable, chunk_count = EXCLUDED.chunk_count,
  attempts = CASE WHEN EXCLUDED.status = 'failed' THEN ${SOURCES}.attempts ELSE 0 END,
  updated_at = EXCLUDED.updated_at`,
    params,
    // One text per number of fields written together: a small, fixed set.
    { prepare: true },
  );
}

/**
 * Counts an extraction of a file source as started, before it runs (its own statement, committed at once): a source
 * whose extractions keep being cut short (a process that died reading it) is not started again and again.
 */
export async function claimFileSource(executor: SqlExecutor, key: SourceKey, sourceHash: string): Promise<void> {
  await executor.query(
    `UPDATE ${SOURCES} SET attempts = attempts + 1 WHERE resource_type = $1 AND resource_id = $2 AND field = $3 AND source_hash = $4`,
    [key.resourceType, key.resourceId, key.field, sourceHash],
  );
}

/** Inserts or replaces the state of one corpus field. */
export function writeSource(tx: SqlExecutor, source: SourceWrite): Promise<void> {
  return writeSources(tx, [source]);
}

/** The chunks of several fields of one record, each chunk knowing its field. */
export interface FieldChunks {
  field: string;
  chunks: readonly TextChunk[];
}

/** Inserts the chunks of several fields of one record in one statement (no vector yet). */
export async function insertChunks(
  tx: SqlExecutor,
  record: { resourceType: string; resourceId: string },
  stamps: TenantStamps,
  header: string,
  sets: readonly FieldChunks[],
  now: string,
): Promise<void> {
  const rows = sets.flatMap((set) => set.chunks.map((chunk) => ({ field: set.field, chunk })));
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO ${CHUNKS} (resource_type, resource_id, field, chunk_index, organization_id, user_id, created_by_user_id,
  header, content, content_hash, chunking_hash, created_at)
SELECT $1, $2, t.field, t.chunk_index, $3, $4, $5, $6, t.content, t.content_hash, t.chunking_hash, $7::timestamptz
FROM unnest($8::text[], $9::int4[], $10::text[], $11::text[], $12::text[]) AS t(field, chunk_index, content, content_hash, chunking_hash)`,
    [
      record.resourceType,
      record.resourceId,
      stamps.organizationId,
      stamps.userId,
      stamps.createdByUserId,
      header,
      now,
      rows.map((row) => row.field),
      rows.map((row) => row.chunk.index),
      rows.map((row) => row.chunk.text),
      rows.map((row) => row.chunk.contentHash),
      rows.map((row) => row.chunk.chunkingHash),
    ],
    { prepare: true },
  );
}

/** Deletes the chunks (and, with `sourcesToo`, the sources) of some fields of one record. */
export async function deleteFields(
  tx: SqlExecutor,
  record: { resourceType: string; resourceId: string },
  fields: readonly string[],
  sourcesToo: readonly string[] = [],
): Promise<void> {
  if (fields.length > 0) {
    await tx.query(
      `DELETE FROM ${CHUNKS} WHERE resource_type = $1 AND resource_id = $2 AND field = ANY($3::text[])`,
      [record.resourceType, record.resourceId, [...fields]],
      { prepare: true },
    );
  }
  if (sourcesToo.length > 0) {
    await tx.query(
      `DELETE FROM ${SOURCES} WHERE resource_type = $1 AND resource_id = $2 AND field = ANY($3::text[])`,
      [record.resourceType, record.resourceId, [...sourcesToo]],
      { prepare: true },
    );
  }
}

/** Replaces the chunks of one corpus field (in the caller's transaction): old ones go, new ones come with no vector. */
export async function replaceChunks(
  tx: SqlExecutor,
  key: SourceKey,
  stamps: TenantStamps,
  header: string,
  chunks: readonly TextChunk[],
  now: string,
): Promise<void> {
  await tx.query(
    `DELETE FROM ${CHUNKS} WHERE resource_type = $1 AND resource_id = $2 AND field = $3`,
    [key.resourceType, key.resourceId, key.field],
    { prepare: true },
  );
  if (chunks.length === 0) return;
  await tx.query(
    `INSERT INTO ${CHUNKS} (resource_type, resource_id, field, chunk_index, organization_id, user_id, created_by_user_id,
  header, content, content_hash, chunking_hash, created_at)
SELECT $1, $2, $3, t.chunk_index, $4, $5, $6, $7, t.content, t.content_hash, $8, $9::timestamptz
FROM unnest($10::int4[], $11::text[], $12::text[]) AS t(chunk_index, content, content_hash)`,
    [
      key.resourceType,
      key.resourceId,
      key.field,
      stamps.organizationId,
      stamps.userId,
      stamps.createdByUserId,
      header,
      chunks[0]?.chunkingHash ?? '',
      now,
      chunks.map((chunk) => chunk.index),
      chunks.map((chunk) => chunk.text),
      chunks.map((chunk) => chunk.contentHash),
    ],
    { prepare: true },
  );
}

/** Keeps the passage header of a record's chunks current (a renamed document, its body unchanged). */
export async function updateHeader(
  tx: SqlExecutor,
  resourceType: string,
  resourceId: string,
  header: string,
): Promise<void> {
  await tx.query(
    `UPDATE ${CHUNKS} SET header = $3 WHERE resource_type = $1 AND resource_id = $2 AND header IS DISTINCT FROM $3`,
    [resourceType, resourceId, header],
    { prepare: true },
  );
}

/** Removes every chunk and source of a record (deleted record). */
export async function removeRecordCorpus(tx: SqlExecutor, resourceType: string, resourceId: string): Promise<void> {
  await tx.query(`DELETE FROM ${CHUNKS} WHERE resource_type = $1 AND resource_id = $2`, [resourceType, resourceId], {
    prepare: true,
  });
  await tx.query(`DELETE FROM ${SOURCES} WHERE resource_type = $1 AND resource_id = $2`, [resourceType, resourceId], {
    prepare: true,
  });
}
