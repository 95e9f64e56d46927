import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { createTestBackend, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES as T } from '../container/saas-service-types.tokens.js';
import { openPostgresHarness, postgresTestUrl } from '../persistence/postgres-test-schema.js';
import type { SqlDatabaseHarness } from '../persistence/sql-database.contract.js';
import { minimalPdf } from '../rag/extraction/extraction.fixtures.js';
import { EXTRACTION_MEDIA_TYPES as M } from '../rag/extraction/extraction.types.js';
import type { RagCorpusMaintenance } from '../rag/rag-corpus-maintenance.service.js';
import type { FileRecordsService } from './file-records.service.js';
import { FILES_TYPES } from './files.tokens.js';
import { mintGrant, upload } from './files.fixtures.js';

// Two replicas on one PostgreSQL with `fileStorage: 'database'`: a document uploaded through the first is read,
// extracted and answered from by the second, which never saw the upload.

const url = postgresTestUrl();

describe.skipIf(url === undefined)('files shared between replicas (DATABASE_URL)', () => {
  let harness: SqlDatabaseHarness;
  let first: TestBackend;
  let second: TestBackend;
  let owner: TestUser;
  let documents: string;

  beforeAll(async () => {
    harness = await openPostgresHarness(url ?? '');
    first = await createTestBackend(harness.database, { fileStorage: 'database' });
    second = await createTestBackend(await harness.openReplica(), { fileStorage: 'database' });
    owner = await signUp(first.api, 'replica-files');
    documents = `/api/v1/organizations/${await createOrganization(first.api, owner, 'Replica Files')}/knowledge-documents`;
  }, 120_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await harness?.close();
  });

  it('uploads through one replica; the other reads the bytes, extracts them and answers from them', async () => {
    const created = await first.api.post(documents).set(owner.auth).send({ title: 'Visitor parking' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data._id as string;
    const content = Buffer.from(minimalPdf(['Visitors park on level minus two', 'Bicycles go to the courtyard rack']));
    const grant = await mintGrant(first.api, owner, `${documents}/${id}/files/document/grant`, {
      name: 'parking.pdf',
      mimeType: M.PDF,
      size: content.byteLength,
    });
    const uploaded = await upload(first.api, grant, { name: 'parking.pdf', type: M.PDF, content });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const fileId = uploaded.body.file.fileId as string;

    // The second replica holds the same bytes, read chunk by chunk from the shared database.
    const files = second.backend.container.get<FileRecordsService>(FILES_TYPES.FileRecords);
    const organizationId = documents.split('/')[4] as string;
    expect((await files.readBytes(fileId, { kind: 'organization', organizationId })).equals(content)).toBe(true);

    // The record is written, extracted and asked on the second replica.
    const written = await second.api
      .put(`${documents}/${id}`)
      .set(owner.auth)
      .send({ document: { fileId, updatedAt: new Date().toISOString() } });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const maintenance = second.backend.container.get<RagCorpusMaintenance>(T.RagCorpusMaintenance);
    expect(await maintenance.extractPendingFiles()).toMatchObject({ indexed: 1, failed: 0 });
    const answer = await second.api
      .post(`${documents}/ask`)
      .set(owner.auth)
      .send({ question: 'Where do bicycles go?' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.context).toContain('courtyard rack');
  });
});
