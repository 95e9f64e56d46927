import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUp, type TestUser } from '../../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES as T } from '../../container/saas-service-types.tokens.js';
import { mintGrant, upload } from '../../files/files.fixtures.js';
import { lyingDocxBomb, minimalDocx, minimalPdf } from '../extraction/extraction.fixtures.js';
import { EXTRACTION_MEDIA_TYPES as M } from '../extraction/extraction.types.js';
import type { RagCorpusMaintenance } from '../rag-corpus-maintenance.service.js';

// A person's path for a document: a knowledge document, an upload grant, the file uploaded through it, the record
// written with it, the extraction job (in the backend's own worker), then a question. The files are built the way
// the readers meet them in the running application: stored on disk and handed over as Node Buffers.

const database = useTestDatabase();
let t: TestBackend;
let owner: TestUser;
let documents: string;
let maintenance: RagCorpusMaintenance;
const MiB = 1024 * 1024;

beforeAll(async () => {
  t = await createTestBackend(database(), { extraction: { worker: { memoryLimitMb: 128 } } });
  owner = await signUp(t.api, 'uploads-owner');
  const org = await createOrganization(t.api, owner, 'Uploads Inc');
  documents = `/api/v1/organizations/${org}/knowledge-documents`;
  maintenance = t.backend.container.get<RagCorpusMaintenance>(T.RagCorpusMaintenance);
});
afterAll(() => t.close());

/** Creates a knowledge document and attaches `file` to it the way a person does: grant, upload, record write. */
async function attach(title: string, file: { name: string; type: string; content: Uint8Array }): Promise<string> {
  const created = await t.api.post(documents).set(owner.auth).send({ title });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data._id as string;
  const grant = await mintGrant(t.api, owner, `${documents}/${id}/files/document/grant`, {
    name: file.name,
    mimeType: file.type,
    size: file.content.byteLength,
  });
  const uploaded = await upload(t.api, grant, { ...file, content: Buffer.from(file.content) });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const document = { fileId: uploaded.body.file.fileId as string, updatedAt: new Date().toISOString() };
  const written = await t.api.put(`${documents}/${id}`).set(owner.auth).send({ document });
  expect(written.status, JSON.stringify(written.body)).toBe(200);
  return id;
}

const sourceOf = async (id: string) =>
  (
    await database().query<{
      status: string;
      failure_reason: string | null;
      failure_detail: string | null;
      retryable: boolean;
      attempts: number;
    }>(
      `SELECT status, failure_reason, failure_detail, retryable, attempts FROM wildo_rag_sources WHERE resource_id = $1 AND field = 'document'`,
      [id],
    )
  ).rows[0];

/** A file source refused for good, for the bound named. */
const refusedFor = (detail: string) => ({
  status: 'failed',
  failure_reason: 'limit_exceeded',
  failure_detail: detail,
  retryable: false,
});

const ask = (question: string) => t.api.post(`${documents}/ask`).set(owner.auth).send({ question });

describe('uploaded documents through ingestion', () => {
  it('extracts an uploaded PDF, and a question then finds its words', async () => {
    const id = await attach('Parking rules', {
      name: 'parking.pdf',
      type: M.PDF,
      content: minimalPdf(['Visitors park on level minus two', 'Bicycles go to the courtyard rack']),
    });
    expect(await maintenance.extractPendingFiles()).toMatchObject({ indexed: 1, failed: 0 });
    expect(await sourceOf(id)).toMatchObject({ status: 'indexed' });
    const answer = await ask('Where do bicycles go?');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.sources[0]).toMatchObject({ knowledgeDocumentId: id, header: 'Parking rules' });
    expect(answer.body.data.context).toContain('courtyard rack');
  });

  it('refuses a .docx that lies about its size as it inflates, marks it for good, and reads an honest one', async () => {
    // 48 KiB on the wire; word/document.xml declares 4 KiB and inflates to 32 MiB.
    const bomb = lyingDocxBomb(4 * 1024, 32 * MiB);
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const bombId = await attach('Quarterly memo', { name: 'memo.docx', type: M.DOCX, content: bomb });
    const honestId = await attach('Onboarding', {
      name: 'onboarding.docx',
      type: M.DOCX,
      content: minimalDocx(['Badges are handed out on the first morning.']),
    });
    expect(await maintenance.extractPendingFiles()).toMatchObject({ indexed: 1, failed: 1 });
    expect(await sourceOf(bombId)).toMatchObject(refusedFor('declared_size'));
    expect((await ask('When are badges handed out?')).body.data.context).toContain('first morning');
    // A later pass, a sweep and a restart's first extraction leave the refused file alone.
    const before = await sourceOf(bombId);
    expect(await maintenance.extractPendingFiles()).toMatchObject({ indexed: 0, failed: 0 });
    expect((await maintenance.sweep()).files).toMatchObject({ indexed: 0, failed: 0 });
    expect(await sourceOf(bombId)).toEqual(before);
    expect(await sourceOf(honestId)).toMatchObject({ status: 'indexed' });
  });

  it('gives up, for good, a pending file whose extractions keep being cut short by the process dying', async () => {
    const id = await attach('Cut short', { name: 'notes.pdf', type: M.PDF, content: minimalPdf(['Never read']) });
    // As if two earlier processes had started this extraction and died before finishing it.
    await database().query(`UPDATE wildo_rag_sources SET attempts = 2 WHERE resource_id = $1`, [id]);
    expect(await maintenance.extractPendingFiles()).toMatchObject({ indexed: 0, failed: 1 });
    expect(await sourceOf(id)).toMatchObject(refusedFor('interrupted'));
  });

  it('tells the document’s ingestion state through its own operation: pending, indexed, failed with its reason', async () => {
    const state = async (id: string) => {
      const res = await t.api.post(`${documents}/${id}/ingestion`).set(owner.auth).send({});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.sources as Array<{ field: string; status: string; failureReason: string | null }>;
    };
    const good = await attach('Coffee rules', {
      name: 'coffee.pdf',
      type: M.PDF,
      content: minimalPdf(['Decaf after 4']),
    });
    const bad = await attach('Broken', {
      name: 'broken.pdf',
      type: M.PDF,
      content: new TextEncoder().encode('%PDF-1.4 nope'),
    });
    expect(await state(good)).toContainEqual(
      expect.objectContaining({ field: 'document', status: 'pending', failureReason: null }),
    );
    await maintenance.extractPendingFiles();
    expect(await state(good)).toContainEqual(expect.objectContaining({ field: 'document', status: 'indexed' }));
    expect(await state(bad)).toContainEqual(
      expect.objectContaining({ field: 'document', status: 'failed', failureReason: 'malformed_document' }),
    );
    // Someone outside the organization learns nothing about the document (its owner above is the control).
    const stranger = await signUp(t.api, 'uploads-stranger');
    const refused = await t.api.post(`${documents}/${good}/ingestion`).set(stranger.auth).send({});
    expect([403, 404]).toContain(refused.status);
    expect(JSON.stringify(refused.body)).not.toContain('indexed');
  });
});
