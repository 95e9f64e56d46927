import { fileIdsIn } from '../../files/index.js';
import type { Logger } from '../../logging/index.js';
import type { SqlDatabase, SqlExecutor, StoredRecord } from '../../persistence/index.js';
import { chunkingHash, chunkText, sourceHash } from '../chunking/text-chunker.js';
import { ExtractionError } from '../extraction/extraction.types.js';
import type { ExtractableFile, FileTextExtractionService } from '../extraction/file-text-extraction.service.js';
import { RAG_SOURCES_TABLE as SOURCES } from '../rag.migrations.js';
import {
  claimFileSource,
  deleteFields,
  insertChunks,
  readSources,
  removeRecordCorpus,
  replaceChunks,
  updateHeader,
  writeSource,
  writeSources,
  type FieldChunks,
  type SourceState,
  type SourceWrite,
  type TenantStamps,
} from './chunk-store.js';
import type { CorpusDefinition, CorpusField } from './corpus-definitions.js';

/** Where ingestion reads stored files (the file storage capability provides it). */
export interface RagFileSource {
  /** The file in the record's tenant, or null when it does not exist there. */
  open(owner: TenantStamps, fileId: string): Promise<ExtractableFile | null>;
}

/** Options of {@link RagIngestionService}. */
export interface RagIngestionOptions {
  corpora: ReadonlyMap<string, CorpusDefinition>;
  extraction: FileTextExtractionService;
  logger: Logger;
  now: () => Date;
  /** Absent until a file storage is configured: file sources then wait as `pending`. */
  files?: RagFileSource;
}

/** What ingesting one record did, per field. */
export interface RecordIngestion {
  chunked: string[];
  unchanged: string[];
  pendingFiles: string[];
  removed: string[];
}

/** What a pass over pending file sources did. */
export interface PendingFilesSummary {
  indexed: number;
  failed: number;
  /** Left pending: no file storage is configured, or a retry is due later. */
  waiting: number;
}

const MAX_FILE_ATTEMPTS = 5;
/** Extractions of one pending source that may start without finishing (the process died) before it is given up. */
const MAX_INTERRUPTED_STARTS = 2;
const MAX_HEADER_CHARACTERS = 200;

function stampsOf(record: StoredRecord): TenantStamps {
  return { organizationId: record.organizationId, userId: record.userId, createdByUserId: record.createdByUserId };
}

/**
 * Keeps the chunks of every corpus resource in step with its records. The live write path calls
 * {@link ingestRecord} / {@link removeRecord} inside the write's own transaction (see `withCorpusIngestion`), and
 * reconciliation calls the same {@link ingestRecord}, so a chunking change rebuilds old material exactly as a
 * new write would. Text fields are chunked at once; file fields are queued as `pending` and extracted by
 * {@link processPendingFiles} (a failed extraction keeps the existing chunks).
 */
export class RagIngestionService {
  private files: RagFileSource | undefined;
  private pendingFilesNotifier: ((tx: SqlExecutor) => Promise<void>) | undefined;

  constructor(private readonly options: RagIngestionOptions) {
    this.files = options.files;
  }

  /** Attaches the file storage ingestion reads from (the files capability calls it at start). */
  setFileSource(files: RagFileSource): void {
    this.files = files;
  }

  /**
   * Called in the write's transaction when a record names files to extract, so the extraction job commits
   * with the write (set by `startRagJobs`; without it pending files wait for the sweep).
   */
  onPendingFiles(notify: (tx: SqlExecutor) => Promise<void>): void {
    this.pendingFilesNotifier = notify;
  }

  /** The corpus of a resource type, if its schema declares one. */
  corpusOf(resourceType: string): CorpusDefinition | undefined {
    return this.options.corpora.get(resourceType);
  }

  listCorpora(): CorpusDefinition[] {
    return [...this.options.corpora.values()];
  }

  /**
   * Brings the chunks of one record's corpus fields up to date, in `tx`: unchanged fields are left alone, the
   * rest is written in a few statements (one delete, one chunk insert, one source upsert). `fresh`: the record
   * was just inserted, so there is nothing stored to read or replace.
   */
  async ingestRecord(
    tx: SqlExecutor,
    corpus: CorpusDefinition,
    record: StoredRecord,
    options: { fresh?: boolean } = {},
  ): Promise<RecordIngestion> {
    const outcome: RecordIngestion = { chunked: [], unchanged: [], pendingFiles: [], removed: [] };
    const states = options.fresh
      ? new Map<string, SourceState>()
      : await readSources(tx, corpus.resourceType, record.id);
    const now = this.options.now().toISOString();
    const header = this.headerOf(corpus, record);
    const stamps = stampsOf(record);
    const base = { resourceType: corpus.resourceType, resourceId: record.id, ...stamps, now };
    const sources: SourceWrite[] = [];
    const sets: FieldChunks[] = [];
    for (const field of corpus.fields) {
      const state = states.get(field.name);
      const stamp = chunkingHash(field.options);
      const value = record.data[field.name];
      const fileIds = field.kind === 'file' ? fileIdsIn(value) : [];
      const text = field.kind === 'text' && typeof value === 'string' ? value : '';
      if (field.kind === 'file' ? fileIds.length === 0 : text.trim() === '') {
        if (state) outcome.removed.push(field.name);
        continue;
      }
      const hash = sourceHash(field.kind === 'file' ? JSON.stringify(fileIds) : text);
      const current = state?.sourceHash === hash && state.chunkingHash === stamp;
      if (current && (field.kind === 'file' ? state.status !== 'failed' : state.status === 'indexed')) {
        outcome.unchanged.push(field.name);
        continue;
      }
      const source = { ...base, field: field.name, sourceHash: hash, chunkingHash: stamp };
      if (field.kind === 'file') {
        // The chunks of the previous file stay searchable until the new one is extracted.
        sources.push({ ...source, kind: 'file', fileIds, status: 'pending', chunkCount: 0 });
        outcome.pendingFiles.push(field.name);
        continue;
      }
      const chunks = await chunkText(text, field.options);
      sets.push({ field: field.name, chunks });
      sources.push({ ...source, kind: 'text', status: 'indexed', chunkCount: chunks.length });
      outcome.chunked.push(field.name);
    }
    const target = { resourceType: corpus.resourceType, resourceId: record.id };
    if (!options.fresh) await deleteFields(tx, target, [...outcome.chunked, ...outcome.removed], outcome.removed);
    await insertChunks(tx, target, stamps, header, sets, now);
    await writeSources(tx, sources);
    if (outcome.unchanged.length > 0) await updateHeader(tx, corpus.resourceType, record.id, header);
    if (outcome.pendingFiles.length > 0) await this.pendingFilesNotifier?.(tx);
    return outcome;
  }

  /** Removes a deleted record's chunks and sources, in `tx`. */
  async removeRecord(tx: SqlExecutor, corpus: CorpusDefinition, resourceId: string): Promise<void> {
    await removeRecordCorpus(tx, corpus.resourceType, resourceId);
  }

  /**
   * Extracts, chunks and indexes file sources waiting as `pending` (and retryable failures below the attempt
   * bound), at most `batchSize`. Extraction runs outside any transaction; the chunks are replaced only if the
   * record still names the same files.
   */
  async processPendingFiles(database: SqlDatabase, options: { batchSize: number }): Promise<PendingFilesSummary> {
    const summary: PendingFilesSummary = { indexed: 0, failed: 0, waiting: 0 };
    const { rows } = await database.query<{
      resource_type: string;
      resource_id: string;
      field: string;
      source_hash: string;
      file_ids: string[] | null;
      organization_id: string | null;
      user_id: string | null;
      created_by_user_id: string | null;
    }>(
      `SELECT resource_type, resource_id, field, source_hash, file_ids, organization_id, user_id, created_by_user_id
FROM ${SOURCES} WHERE kind = 'file'
  AND ((status = 'pending' AND attempts < $3) OR (status = 'failed' AND retryable AND attempts < $1))
ORDER BY updated_at LIMIT $2`,
      [MAX_FILE_ATTEMPTS, options.batchSize, MAX_INTERRUPTED_STARTS],
    );
    summary.failed += await this.abandonInterrupted(database);
    for (const row of rows) {
      const corpus = this.corpusOf(row.resource_type);
      const field = corpus?.fields.find((candidate) => candidate.name === row.field);
      if (!corpus || !field || field.kind !== 'file' || !this.files) {
        summary.waiting++;
        continue;
      }
      const owner = {
        organizationId: row.organization_id,
        userId: row.user_id,
        createdByUserId: row.created_by_user_id,
      };
      const key = { resourceType: row.resource_type, resourceId: row.resource_id, field: row.field };
      await claimFileSource(database, key, row.source_hash);
      const result = await this.extractFiles(row.file_ids ?? [], owner, field);
      await database.transaction(async (tx) => {
        const current = (await readSources(tx, key.resourceType, key.resourceId)).get(key.field);
        if (current?.sourceHash !== row.source_hash) return; // The record changed meanwhile; its new state wins.
        const now = this.options.now().toISOString();
        const base = {
          ...key,
          ...owner,
          kind: 'file' as const,
          sourceHash: row.source_hash,
          chunkingHash: chunkingHash(field.options),
          fileIds: row.file_ids,
          now,
        };
        if ('error' in result) {
          await writeSource(tx, {
            ...base,
            status: 'failed',
            failureReason: result.error.reason,
            failureDetail: result.error.limit ?? null,
            retryable: result.error.retryable,
            chunkCount: 0,
          });
          summary.failed++;
          return;
        }
        const chunks = await chunkText(result.text, field.options);
        const header = await this.storedHeader(tx, key.resourceType, key.resourceId, corpus);
        await replaceChunks(tx, key, owner, header, chunks, now);
        await writeSource(tx, { ...base, status: 'indexed', chunkCount: chunks.length });
        summary.indexed++;
      });
    }
    return summary;
  }

  /**
   * Marks failed, for good, the pending file sources whose extractions were started {@link MAX_INTERRUPTED_STARTS}
   * times and never finished (the process died reading them): they are not picked up again at the next start.
   */
  private async abandonInterrupted(database: SqlDatabase): Promise<number> {
    const { affectedRows } = await database.query(
      `UPDATE ${SOURCES} SET status = 'failed', failure_reason = 'limit_exceeded', failure_detail = 'interrupted',
  retryable = false, updated_at = $2 WHERE kind = 'file' AND status = 'pending' AND attempts >= $1`,
      [MAX_INTERRUPTED_STARTS, this.options.now().toISOString()],
    );
    if (affectedRows > 0)
      this.options.logger.warn('rag file extraction abandoned after interrupted attempts', { sources: affectedRows });
    return affectedRows;
  }

  private async extractFiles(
    fileIds: readonly string[],
    owner: TenantStamps,
    field: Extract<CorpusField, { kind: 'file' }>,
  ): Promise<{ text: string } | { error: ExtractionError }> {
    const texts: string[] = [];
    try {
      for (const fileId of fileIds) {
        const file = await this.files?.open(owner, fileId);
        if (!file) throw new ExtractionError('malformed_document', "The file does not exist in the record's tenant.");
        const extracted = await this.options.extraction.extractText(
          file,
          { requestId: `rag-ingestion:${fileId}` },
          {
            allowProviderExtraction: field.file.textExtraction?.ocr === true,
          },
        );
        texts.push(extracted.text);
      }
      return { text: texts.join('\n\n') };
    } catch (error) {
      const failure =
        error instanceof ExtractionError
          ? error
          : new ExtractionError('storage_unavailable', 'The file could not be read.', { cause: error });
      this.options.logger.warn('rag file extraction failed', {
        reason: failure.reason,
        ...(failure.limit ? { limit: failure.limit } : {}),
        retryable: failure.retryable,
        error: String(error),
      });
      return { error: failure };
    }
  }

  /** The passage header: the record's title-like field, bounded, else the type's name and the record id. */
  headerOf(corpus: CorpusDefinition, record: Pick<StoredRecord, 'id' | 'data'>): string {
    const value = corpus.headerField ? record.data[corpus.headerField] : undefined;
    const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
    return text === '' ? `${corpus.displayName} ${record.id}` : text.slice(0, MAX_HEADER_CHARACTERS);
  }

  private async storedHeader(
    tx: SqlExecutor,
    resourceType: string,
    id: string,
    corpus: CorpusDefinition,
  ): Promise<string> {
    const { rows } = await tx.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM ${corpus.table} WHERE id = $1`,
      [id],
    );
    return this.headerOf(corpus, { id, data: rows[0]?.data ?? {} });
  }
}
