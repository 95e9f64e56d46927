import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOrganization, signUp, type TestUser } from '../../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES as T } from '../../container/saas-service-types.tokens.js';
import type { FileRecordsService } from '../../files/file-records.service.js';
import { FILES_TYPES } from '../../files/files.tokens.js';
import type { ResourceStore } from '../../persistence/resource-store.js';
import type { SqlDatabase } from '../../persistence/sql-database.js';
import type { ResourcesRegistry } from '../../resources/resources-registry.service.js';
import { chunkingHash } from '../chunking/text-chunker.js';
import { minimalPdf } from '../extraction/extraction.fixtures.js';
import { FileTextExtractionService } from '../extraction/file-text-extraction.service.js';
import type { JobQueueService } from '../../jobs/job-queue.service.js';
import { JOBS_TYPES } from '../../jobs/jobs.tokens.js';
import type { RagCorpusMaintenance } from '../rag-corpus-maintenance.service.js';
import { startRagJobs } from '../rag-jobs.js';
import { createSilentLogger } from '../../logging/index.js';
import { RagIngestionService, type RagFileSource } from './rag-ingestion.service.js';

const database = useTestDatabase();
let t: TestBackend;
let owner: TestUser;
let orgId: string;
let base: string;

interface ChunkRow {
  resource_id: string;
  field: string;
  chunk_index: number;
  organization_id: string | null;
  header: string;
  content: string;
  chunking_hash: string;
  content_hash: string;
}

const chunksOf = async (id: string) =>
  (
    await database().query<ChunkRow>(
      `SELECT resource_id, field, chunk_index, organization_id, header, content, chunking_hash, content_hash
       FROM wildo_rag_chunks WHERE resource_id = $1 ORDER BY field, chunk_index`,
      [id],
    )
  ).rows;

const paragraphs = (label: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${label} paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(12)}`).join(
    '\n\n',
  );

beforeAll(async () => {
  t = await createTestBackend(database());
  owner = await signUp(t.api, 'rag-owner');
  orgId = await createOrganization(t.api, owner, 'Corpus Inc');
  base = `/api/v1/organizations/${orgId}/knowledge-documents`;
});
afterAll(() => t.close());

describe('ingestion on the write path', () => {
  it('chunks the source fields of a created document with its tenant stamps and both hashes; other fields stay out', async () => {
    const res = await t.api
      .post(base)
      .set(owner.auth)
      .send({
        title: 'Travel policy',
        body: `# Flights\n\n${paragraphs('Flights', 4)}\n\n# Hotels\n\nBook through the portal.`,
        internalReviewNotes: 'SECRET-NOTE never indexed',
      });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data._id as string;
    const chunks = await chunksOf(id);
    expect(chunks.map((c) => c.field)).toContain('title');
    expect(chunks.filter((c) => c.field === 'body').length).toBeGreaterThan(2);
    expect(chunks.every((c) => c.organization_id === orgId && c.header === 'Travel policy')).toBe(true);
    expect(chunks.some((c) => c.content.includes('SECRET-NOTE'))).toBe(false);
    const body = chunks.find((c) => c.field === 'body');
    expect(body?.chunking_hash).toBe(
      chunkingHash({ chunkingStrategy: 'MARKDOWN' as never, chunkSize: 1_200, chunkOverlap: 150 }),
    );
    expect(chunks.filter((c) => c.field === 'body').at(-1)?.content).toBe('# Hotels\nBook through the portal.');
  });

  it('rechunks on update, leaves unchanged fields alone, keeps headers current, and removes everything on delete', async () => {
    const id = (await t.api.post(base).set(owner.auth).send({ title: 'Old title', body: 'First version of the body.' }))
      .body.data._id as string;
    const before = await chunksOf(id);
    const renamed = await t.api
      .put(`${base}/${id}`)
      .set(owner.auth)
      .send({ title: 'New title', internalReviewNotes: 'x' });
    expect(renamed.status).toBe(200);
    const afterRename = await chunksOf(id);
    expect(afterRename.find((c) => c.field === 'body')?.content_hash).toBe(
      before.find((c) => c.field === 'body')?.content_hash,
    );
    expect(afterRename.every((c) => c.header === 'New title')).toBe(true);
    expect((await t.api.put(`${base}/${id}`).set(owner.auth).send({ body: 'Second version.' })).status).toBe(200);
    expect((await chunksOf(id)).find((c) => c.field === 'body')?.content).toBe('Second version.');
    expect((await t.api.delete(`${base}/${id}`).set(owner.auth)).status).toBe(200);
    expect(await chunksOf(id)).toEqual([]);
    const { rows } = await database().query('SELECT 1 FROM wildo_rag_sources WHERE resource_id = $1', [id]);
    expect(rows).toEqual([]);
  });

  it('commits chunks with the write: a rolled-back transaction leaves neither record nor chunks', async () => {
    const store = t.backend.container.get<ResourceStore>(T.ResourceStore);
    const definition = t.backend.container
      .get<ResourcesRegistry>(T.ResourcesRegistry)
      .getResource('knowledge-documents').storeDefinition;
    const scope = { kind: 'organization' as const, organizationId: orgId };
    const creator = { userId: owner.userId, principalType: 'USER', principalId: owner.userId };
    const failed = store.transaction(async (tx) => {
      await tx.insert(definition, scope, { id: 'rolled-back-doc', data: { title: 'Ghost' }, creator });
      throw new Error('abort');
    });
    await expect(failed).rejects.toThrow('abort');
    expect(await store.findById(definition, scope, 'rolled-back-doc')).toBeNull();
    expect(await chunksOf('rolled-back-doc')).toEqual([]);
    // Positive control: the same write committed has its chunks.
    await store.insert(definition, scope, { id: 'committed-doc', data: { title: 'Real' }, creator });
    expect((await chunksOf('committed-doc')).map((c) => c.content)).toEqual(['Real']);
  });
});

describe('the sweep', () => {
  it('rebuilds stale chunkings, removes orphans and repairs tenant stamps', async () => {
    const maintenance = t.backend.container.get<RagCorpusMaintenance>(T.RagCorpusMaintenance);
    const db: SqlDatabase = database();
    const id = (
      await t.api
        .post(base)
        .set(owner.auth)
        .send({ title: 'Expenses', body: paragraphs('Receipts', 8) })
    ).body.data._id as string;
    const current = (await chunksOf(id)).find((c) => c.field === 'body')?.chunking_hash;
    // As if the declaration's chunking had changed since: every stamp differs from what the declaration gives now.
    await db.query(`UPDATE wildo_rag_sources SET chunking_hash = 'old' WHERE resource_id = $1`, [id]);
    await db.query(`DELETE FROM wildo_rag_chunks WHERE resource_id = $1 AND field = 'body' AND chunk_index > 0`, [id]);
    await db.query(
      `UPDATE wildo_rag_chunks SET chunking_hash = 'old', organization_id = 'someone-else' WHERE resource_id = $1`,
      [id],
    );
    await db.query(
      `INSERT INTO wildo_rag_chunks (resource_type, resource_id, field, chunk_index, organization_id, header, content, content_hash, chunking_hash, created_at)
       VALUES ('knowledge-documents', 'deleted-long-ago', 'title', 0, $1, 'Gone', 'Gone', 'h', 'c', now())`,
      [orgId],
    );
    const summary = await maintenance.sweep();
    expect(summary.rebuiltRecords).toBe(1);
    expect(summary.removedOrphans).toBeGreaterThanOrEqual(1);
    const rebuilt = await chunksOf(id);
    expect(rebuilt.filter((c) => c.field === 'body').length).toBeGreaterThan(1);
    expect(rebuilt.every((c) => c.chunking_hash !== 'old' && c.organization_id === orgId)).toBe(true);
    expect(rebuilt.find((c) => c.field === 'body')?.chunking_hash).toBe(current);
    expect(await chunksOf('deleted-long-ago')).toEqual([]);
    // Converged: a second sweep finds nothing to do.
    expect(await maintenance.sweep()).toMatchObject({ rebuiltRecords: 0, removedOrphans: 0, repairedStamps: 0 });
  });

  it('reports an absent embeddings provider instead of manufacturing vectors', async () => {
    const maintenance = t.backend.container.get<RagCorpusMaintenance>(T.RagCorpusMaintenance);
    const summary = await maintenance.drainEmbeddings({ batchSize: 10 });
    expect(summary).toMatchObject({ status: 'absent', embedded: 0 });
    expect(summary.backlogAfter).toBeGreaterThan(0);
  });
});

describe('file sources', () => {
  // Stored bytes by file id, as a storage provider would serve them to ingestion (the files capability's part).
  // The ids are the tenant's file records for the `document` field: a write naming any other file is refused.
  const stored = new Map<string, { mediaType: string; bytes: Uint8Array } | 'unreachable'>();
  const ids = { pdf: '', scan: '', down: '', policy: '' };
  beforeAll(async () => {
    const records = t.backend.container.get<FileRecordsService>(FILES_TYPES.FileRecords);
    const register = async (name: string, bytes: Uint8Array, mediaType = 'application/pdf') =>
      (
        await records.storeUpload({
          tenant: { kind: 'organization', organizationId: orgId },
          resourceType: 'knowledge-documents',
          fieldName: 'document',
          name,
          mediaType,
          bytes,
          uploadedBy: { entityType: 'user', id: owner.userId },
        })
      ).id;
    const pdf = minimalPdf(['Visitors sign in at reception']);
    const scan = minimalPdf([]);
    ids.pdf = await register('visitors.pdf', pdf);
    ids.scan = await register('scan.pdf', scan);
    ids.down = await register('down.pdf', scan);
    stored.set(ids.pdf, { mediaType: 'application/pdf', bytes: pdf });
    stored.set(ids.scan, { mediaType: 'application/pdf', bytes: scan });
    stored.set(ids.down, 'unreachable');
    const policy = new TextEncoder().encode('Badges are renewed every year.');
    ids.policy = await register('policy.txt', policy, 'text/plain');
    stored.set(ids.policy, { mediaType: 'text/plain', bytes: policy });
  });
  const files: RagFileSource = {
    open: async (_owner, fileId) => {
      const file = stored.get(fileId);
      if (!file) return null;
      return {
        fileId,
        mediaType: file === 'unreachable' ? 'application/pdf' : file.mediaType,
        read: async () => {
          if (file === 'unreachable') throw new Error('ECONNRESET');
          return file.bytes;
        },
      };
    },
  };
  const fileIngestion = () => {
    const live = t.backend.container.get<RagIngestionService>(T.RagIngestionService);
    const corpora = new Map(live.listCorpora().map((corpus) => [corpus.resourceType, corpus]));
    const logger = createSilentLogger();
    return new RagIngestionService({
      corpora,
      extraction: new FileTextExtractionService({ logger }),
      logger,
      now: () => new Date(),
      files,
    });
  };
  const sourceOf = async (id: string) =>
    (
      await database().query<{ status: string; failure_reason: string | null; retryable: boolean; attempts: number }>(
        `SELECT status, failure_reason, retryable, attempts FROM wildo_rag_sources WHERE resource_id = $1 AND field = 'document'`,
        [id],
      )
    ).rows[0];
  const documentChunks = async (id: string) =>
    (await chunksOf(id)).filter((c) => c.field === 'document').map((c) => c.content);
  const fileValue = (fileId: string) => ({ fileId, updatedAt: new Date().toISOString() });

  it('extracts a named file after the write, and keeps the indexed text when a later file cannot be read', async () => {
    const id = (
      await t.api
        .post(base)
        .set(owner.auth)
        .send({ title: 'Visitors', document: fileValue(ids.pdf) })
    ).body.data._id as string;
    expect(await sourceOf(id)).toMatchObject({ status: 'pending' });
    expect(await documentChunks(id)).toEqual([]);
    const ingestion = fileIngestion();
    expect(await ingestion.processPendingFiles(database(), { batchSize: 10 })).toMatchObject({ indexed: 1, failed: 0 });
    expect(await documentChunks(id)).toEqual(['Visitors sign in at reception']);
    // A scan without a text layer fails extraction (not retryable without recognition): the old text stays searchable.
    expect(
      (
        await t.api
          .put(`${base}/${id}`)
          .set(owner.auth)
          .send({ document: fileValue(ids.scan) })
      ).status,
    ).toBe(200);
    expect(await ingestion.processPendingFiles(database(), { batchSize: 10 })).toMatchObject({ indexed: 0, failed: 1 });
    expect(await sourceOf(id)).toMatchObject({ status: 'failed', failure_reason: 'no_text_layer', retryable: false });
    expect(await documentChunks(id)).toEqual(['Visitors sign in at reception']);
    // A failed download is retryable: the next pass tries again.
    expect(
      (
        await t.api
          .put(`${base}/${id}`)
          .set(owner.auth)
          .send({ document: fileValue(ids.down) })
      ).status,
    ).toBe(200);
    await ingestion.processPendingFiles(database(), { batchSize: 10 });
    expect(await sourceOf(id)).toMatchObject({
      status: 'failed',
      failure_reason: 'storage_unavailable',
      retryable: true,
      attempts: 1,
    });
    await ingestion.processPendingFiles(database(), { batchSize: 10 });
    expect(await sourceOf(id)).toMatchObject({ attempts: 2 });
    expect(await documentChunks(id)).toEqual(['Visitors sign in at reception']);
  });

  it('enqueues the extraction in the write’s own transaction, and the job runner indexes the file', async () => {
    const c = t.backend.container;
    c.get<RagIngestionService>(T.RagIngestionService).setFileSource(files);
    await startRagJobs(
      c.get<JobQueueService>(JOBS_TYPES.JobQueueService),
      c.get<RagCorpusMaintenance>(T.RagCorpusMaintenance),
      {
        schedule: false,
      },
    );
    const id = (
      await t.api
        .post(base)
        .set(owner.auth)
        .send({ title: 'Badges', document: fileValue(ids.policy) })
    ).body.data._id as string;
    await vi.waitFor(async () => expect(await documentChunks(id)).toEqual(['Badges are renewed every year.']), {
      timeout: 10_000,
      interval: 50,
    });
    expect(await sourceOf(id)).toMatchObject({ status: 'indexed' });
  });
});
