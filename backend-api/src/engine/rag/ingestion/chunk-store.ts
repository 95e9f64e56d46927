import type { SqlExecutor } from '../../persistence/sql-database.js';
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

/** Inserts or replaces the state of one corpus field. */
export async function writeSource(tx: SqlExecutor, source: SourceWrite): Promise<void> {
  await tx.query(
    `INSERT INTO ${SOURCES} (resource_type, resource_id, field, kind, organization_id, user_id, created_by_user_id,
  source_hash, chunking_hash, file_ids, status, failure_reason, retryable, chunk_count, attempts, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text[], $11, $12, $13, $14, 0, $15::timestamptz)
ON CONFLICT (resource_type, resource_id, field) DO UPDATE SET kind = EXCLUDED.kind,
  organization_id = EXCLUDED.organization_id, user_id = EXCLUDED.user_id, created_by_user_id = EXCLUDED.created_by_user_id,
  source_hash = EXCLUDED.source_hash, chunking_hash = EXCLUDED.chunking_hash, file_ids = EXCLUDED.file_ids,
  status = EXCLUDED.status, failure_reason = EXCLUDED.failure_reason, retryable = EXCLUDED.retryable,
  chunk_count = EXCLUDED.chunk_count,
  attempts = CASE WHEN EXCLUDED.status = 'failed' THEN ${SOURCES}.attempts + 1 ELSE 0 END,
  updated_at = EXCLUDED.updated_at`,
    [
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
      source.retryable ?? false,
      source.chunkCount,
      source.now,
    ],
    { prepare: true },
  );
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

/** Removes the chunks and source of one field (its value was cleared). */
export async function removeSource(tx: SqlExecutor, key: SourceKey): Promise<void> {
  const params = [key.resourceType, key.resourceId, key.field];
  await tx.query(`DELETE FROM ${CHUNKS} WHERE resource_type = $1 AND resource_id = $2 AND field = $3`, params, {
    prepare: true,
  });
  await tx.query(`DELETE FROM ${SOURCES} WHERE resource_type = $1 AND resource_id = $2 AND field = $3`, params, {
    prepare: true,
  });
}
