import { randomUUID } from 'node:crypto';
import { CORE_ORG_ROLES, ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUp, type TestUser } from '../../../testing/identity.fixtures.js';
import { OpenAIStub } from '../../../testing/llm-stubs/index.js';
import { createTestBackend, type TestBackend } from '../../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES as T } from '../../container/saas-service-types.tokens.js';
import { openPostgresHarness, postgresTestUrl } from '../../persistence/postgres-test-schema.js';
import type { SqlDatabaseHarness } from '../../persistence/sql-database.contract.js';
import type { RagCorpusMaintenance } from '../rag-corpus-maintenance.service.js';
import type { RagRetrievalBackendService } from './rag-retrieval.service.js';

const url = postgresTestUrl();

describe.skipIf(url === undefined)('RAG on PostgreSQL without pgvector (DATABASE_URL)', () => {
  const stub = new OpenAIStub().setFallback(() => ({ type: 'embeddings', dims: 1536 }));
  let harness: SqlDatabaseHarness;
  let t: TestBackend;
  let owner: TestUser;
  let orgId: string;

  beforeAll(async () => {
    await stub.start();
    harness = await openPostgresHarness(url ?? '');
    t = await createTestBackend(harness.database, { env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: stub.baseURL } });
    owner = await signUp(t.api, 'rag-pg');
    orgId = await createOrganization(t.api, owner, 'PG Org');
    const res = await t.api
      .post(`/api/v1/organizations/${orgId}/knowledge-documents`)
      .set(owner.auth)
      .send({ title: 'Security policy', body: 'Rotate passwords every ninety days.' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await harness?.close();
    await stub.close();
  });

  it('reports the vector arm unavailable and the search degraded, never silently lexical', async () => {
    expect(harness.database.info.vector).toBe(false);
    const retrieval = t.backend.container.get<RagRetrievalBackendService>(T.RagRetrievalService);
    const result = await retrieval.retrieve({
      query: 'how often do passwords rotate',
      executionContext: {
        executionType: ExecutionContext_ExecutionType.USER,
        initiatorIds: { userId: owner.userId, organizationId: orgId },
        initiatorRoles: [CORE_ORG_ROLES.ORG_MEMBER],
        tenant: { kind: 'organization', organizationId: orgId },
        surface: 'internal',
        requestId: randomUUID(),
        callTimestamp: new Date().toISOString(),
      },
    });
    expect(result).toMatchObject({ mode: 'hybrid', searchStatus: 'degraded', embeddingStatus: 'not_attempted' });
    expect(result.searches).toEqual([
      expect.objectContaining({ arm: 'lexical', outcome: 'ran', hits: 1 }),
      expect.objectContaining({ arm: 'vector', outcome: 'unavailable' }),
    ]);
    expect(result.rows[0]?.contextText).toContain('ninety days');
    // No query was embedded for a vector arm that cannot run.
    expect(stub.requests).toEqual([]);
  });

  it('drains nothing and says why', async () => {
    const maintenance = t.backend.container.get<RagCorpusMaintenance>(T.RagCorpusMaintenance);
    expect(await maintenance.drainEmbeddings({ batchSize: 10 })).toMatchObject({
      status: 'vector_unavailable',
      embedded: 0,
      backlogAfter: 2,
    });
  });
});
