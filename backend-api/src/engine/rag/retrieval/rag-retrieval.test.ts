import { randomUUID } from 'node:crypto';
import {
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  ExecutionContext_ExecutionType,
  initZodDecorators,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  type AgentCallTraceEmission,
} from '@wildo/shared-lib';
import { z } from 'zod';
import { referenceApplication } from '../../../modules/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readGeneratedRuntime } from '../../../testing/generated-runtime.js';
import { createOrganization, signUp, type TestUser } from '../../../testing/identity.fixtures.js';
import { errorReply, OpenAIStub } from '../../../testing/llm-stubs/index.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import type { TokenBudgetService } from '../../agents/budgets/token-budget.types.js';
import { ProviderRegistry } from '../../agents/providers/provider-registry.service.js';
import type { Clock } from '../../container/clock.js';
import { SAAS_SERVICE_TYPES as T } from '../../container/saas-service-types.tokens.js';
import { createSilentLogger } from '../../logging/index.js';
import { recordingLogger } from '../../observability/observability.fixtures.js';
import type { AgentTraceSink } from '../../observability/trace-sink.js';
import type { ResourceStore } from '../../persistence/resource-store.js';
import type { SqlDatabase } from '../../persistence/sql-database.js';
import type { ExecutionContext } from '../../resources/execution-context.js';
import type { ResourcesRegistry } from '../../resources/resources-registry.service.js';
import type { RoleHierarchyResolver } from '../../identity/role-hierarchy.service.js';
import { EmbeddingsBackendService } from '../embeddings/embeddings-backend.service.js';
import type { RagIngestionService } from '../ingestion/rag-ingestion.service.js';
import type { JobQueueService } from '../../jobs/job-queue.service.js';
import { JOBS_TYPES } from '../../jobs/jobs.tokens.js';
import { RagCorpusMaintenance } from '../rag-corpus-maintenance.service.js';
import {
  RAG_EMBEDDING_DRAIN_CRON,
  RAG_EMBEDDING_DRAIN_QUEUE,
  RAG_SWEEP_CRON,
  RAG_SWEEP_QUEUE,
  startRagJobs,
} from '../rag-jobs.js';
import { RagRetrievalBackendService } from './rag-retrieval.service.js';

const database = useTestDatabase();
const traces: AgentCallTraceEmission[] = [];
const traceSink: AgentTraceSink = { name: 'collect', emit: (trace) => void traces.push(trace), flush: async () => {} };
// The real OpenAI adapter (official SDK) against local peers speaking the Embeddings API.
const healthy = new OpenAIStub().setFallback((request) => ({
  type: 'embeddings',
  dims: request.body?.dimensions ?? (request.body?.model === 'text-embedding-3-large' ? 3072 : 1536),
}));
const failing = new OpenAIStub().setFallback(() => errorReply(500, 'upstream exploded'));
let t: TestBackend;
let owner: TestUser;
let orgA: string;
let orgB: string;
let docA: string;
let env: Record<string, string>;

const KD = 'knowledge-documents';

initZodDecorators(z);
/** An owner-only corpus: members read the memos they wrote, managers read all of them. */
const memosResource = defineResource({
  type: 'memos',
  displayName: 'Memos',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ text: z.string().min(1).max(2_000).ragSource() }),
  operationsConfiguration: {
    [CoreResourceOperation.READ]: {
      variants: [
        {
          variantType: ResourceOperationVariantType.API_CALL,
          isDefault: true,
          roles: [CORE_ORG_ROLES.ORG_MEMBER],
          ownerOnly: { exemptRoles: [CORE_ORG_ROLES.ORG_MANAGER] },
        },
      ],
    },
  },
});
const application = {
  ...referenceApplication,
  modules: [...referenceApplication.modules, { name: 'memos', resources: [memosResource] }],
};

function memberOf(
  organizationId: string,
  user: TestUser,
  roles: string[] = [CORE_ORG_ROLES.ORG_MEMBER],
): ExecutionContext {
  return {
    executionType: ExecutionContext_ExecutionType.USER,
    initiatorIds: { userId: user.userId, organizationId },
    initiatorRoles: roles,
    tenant: { kind: 'organization', organizationId },
    surface: 'internal',
    requestId: randomUUID(),
    callTimestamp: new Date().toISOString(),
  };
}

/** A retrieval service over the test backend's database with its own embeddings configuration. */
async function retrievalWith(providerEnv: Record<string, string>, model?: string, dimensions?: number) {
  const c = t.backend.container;
  const embeddings = new EmbeddingsBackendService({
    providers: new ProviderRegistry({ runtime: await readGeneratedRuntime(), env: providerEnv, maxRetries: 0 }),
    traceSink,
    budgets: c.get<TokenBudgetService>(T.BudgetAdmission),
    clock: c.get<Clock>(T.Clock),
    logger: createSilentLogger(),
    ...(model ? { model } : {}),
    ...(dimensions ? { dimensions } : {}),
  });
  const ingestion = c.get<RagIngestionService>(T.RagIngestionService);
  const db = c.get<SqlDatabase>(T.Database);
  const retrieval = new RagRetrievalBackendService({
    database: db,
    registry: c.get<ResourcesRegistry>(T.ResourcesRegistry),
    roles: c.get<RoleHierarchyResolver>(T.RoleHierarchyResolver),
    ingestion,
    embeddings,
    logger: createSilentLogger(),
  });
  const maintenance = new RagCorpusMaintenance({
    database: db,
    ingestion,
    embeddings,
    logger: createSilentLogger(),
    clock: c.get<Clock>(T.Clock),
  });
  return { embeddings, retrieval, maintenance };
}

async function create(organizationId: string, document: Record<string, string>): Promise<string> {
  const res = await t.api.post(`/api/v1/organizations/${organizationId}/${KD}`).set(owner.auth).send(document);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id as string;
}

beforeAll(async () => {
  await Promise.all([healthy.start(), failing.start()]);
  env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: healthy.baseURL };
  t = await createTestBackend(database(), { application, env, traceSink, providers: { maxRetries: 0 } });
  owner = await signUp(t.api, 'rag-retrieval');
  orgA = await createOrganization(t.api, owner, 'Org A');
  orgB = await createOrganization(t.api, owner, 'Org B');
  docA = await create(orgA, {
    title: 'Remote work policy',
    body: 'ORG-A-ONLY: remote work is allowed two days a week.',
  });
  // Org B has many more matches for the same question, so a small limit would show a leak at once.
  for (let i = 0; i < 12; i++) {
    await create(orgB, {
      title: `Remote work policy ${i}`,
      body: `ORG-B-SECRET ${i}: remote work is allowed every day of the week.`,
    });
  }
  await create(orgA, {
    title: 'Handbook',
    body: Array.from(
      { length: 12 },
      (_, i) =>
        `## Section ${i}\n\nThe handbook explains remote work rules, part ${i}. ${'Details follow. '.repeat(20)}`,
    ).join('\n\n'),
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all([healthy.close(), failing.close()]);
});

describe('RagRetrievalBackendService', () => {
  it('is bound in the container and searches hybrid with the selected provider once vectors exist', async () => {
    const maintenance = t.backend.container.get<RagCorpusMaintenance>(T.RagCorpusMaintenance);
    for (let round = 0; round < 5 && (await maintenance.embeddingBacklog()) > 0; round++)
      await maintenance.drainEmbeddings({ batchSize: 100 });
    expect(await maintenance.embeddingBacklog()).toBe(0);
    const retrieval = t.backend.container.get<RagRetrievalBackendService>(T.RagRetrievalService);
    const result = await retrieval.retrieve({
      query: 'remote work days',
      executionContext: memberOf(orgA, owner),
      resourceTypes: [KD],
    });
    expect(result).toMatchObject({
      mode: 'hybrid',
      searchStatus: 'ok',
      embeddingStatus: 'embedded',
      refusedResourceTypes: [],
    });
    expect(result.searches).toEqual([
      expect.objectContaining({ resourceType: KD, arm: 'lexical', outcome: 'ran' }),
      expect.objectContaining({ resourceType: KD, arm: 'vector', outcome: 'ran' }),
    ]);
    expect(result.searches.every((search) => search.hits > 0)).toBe(true);
    // The stub's vectors are hashes of the text, not meanings: only membership is asserted, not order.
    expect(result.rows.find((row) => row.resourceId === docA)?.contextText).toContain('### Remote work policy');
    // The query embedding was traced like a model call and charged to the caller's organization.
    const queryTrace = traces.find((trace) => trace.traceContext?.attributes?.purpose === 'QUERY');
    expect(queryTrace).toMatchObject({
      operationKey: 'EMBED_TEXTS',
      providerRef: 'openai',
      model: 'text-embedding-3-small',
      outcome: 'success',
    });
    expect(queryTrace?.context).toMatchObject({ embeddingDims: 1536, embeddingCount: 1 });
    const budgets = t.backend.container.get<
      TokenBudgetService & { status(tenant: unknown): Promise<{ consumedTokens: number }> }
    >(T.TokenBudgetService);
    expect((await budgets.status({ kind: 'organization', organizationId: orgA })).consumedTokens).toBeGreaterThan(0);
  });

  it('never shows one organization the passages of another, even with a limit below the other’s matches', async () => {
    const retrieval = t.backend.container.get<RagRetrievalBackendService>(T.RagRetrievalService);
    const asA = await retrieval.retrieve({
      query: 'remote work policy week',
      executionContext: memberOf(orgA, owner),
      resourceTypes: [KD],
      limit: 2,
    });
    expect(asA.rows.map((row) => row.resourceId)).toContain(docA);
    expect(asA.rows.every((row) => !row.contextText.includes('ORG-B'))).toBe(true);
    // Only A's chunks were ranked and counted: A has 2 title + 1 body chunk matching at most, plus its handbook.
    const { rows: aChunks } = await database().query<{ n: string }>(
      `SELECT count(*) AS n FROM wildo_rag_chunks WHERE organization_id = $1`,
      [orgA],
    );
    expect(asA.chunkHitCount).toBeLessThanOrEqual(Number(aChunks[0]?.n));
    const asB = await retrieval.retrieve({
      query: 'remote work policy week ORG-A-ONLY',
      executionContext: memberOf(orgB, owner),
      resourceTypes: [KD],
      limit: 50,
    });
    expect(asB.rows.length).toBe(12);
    expect(
      asB.rows.every((row) => row.contextText.includes('ORG-B-SECRET') && !row.contextText.includes('ORG-A')),
    ).toBe(true);
  });

  it('applies an owner-only read inside the search: a member finds only their own memos, a manager all', async () => {
    const store = t.backend.container.get<ResourceStore>(T.ResourceStore);
    const definition = t.backend.container
      .get<ResourcesRegistry>(T.ResourcesRegistry)
      .getResource('memos').storeDefinition;
    const scope = { kind: 'organization' as const, organizationId: orgA };
    const writer = (userId: string) => ({ userId, principalType: 'USER', principalId: userId });
    await store.insert(definition, scope, { data: { text: 'budget memo from alice' }, creator: writer('alice') });
    await store.insert(definition, scope, { data: { text: 'budget memo from bob' }, creator: writer('bob') });
    const retrieval = t.backend.container.get<RagRetrievalBackendService>(T.RagRetrievalService);
    const as = (userId: string, roles: string[]) => ({
      ...memberOf(orgA, owner, roles),
      initiatorIds: { userId, organizationId: orgA },
    });
    const alice = await retrieval.retrieve({
      query: 'budget memo',
      executionContext: as('alice', [CORE_ORG_ROLES.ORG_MEMBER]),
      resourceTypes: ['memos'],
      limit: 1,
    });
    expect(alice.rows.map((row) => row.contextText)).toEqual([expect.stringContaining('from alice')]);
    expect(alice.chunkHitCount).toBe(1);
    const manager = await retrieval.retrieve({
      query: 'budget memo',
      executionContext: as('carol', [CORE_ORG_ROLES.ORG_MANAGER]),
      resourceTypes: ['memos'],
    });
    expect(manager.rows.length).toBe(2);
  });

  it('reports a corpus the caller may not read as refused, not as empty (with a reader as control)', async () => {
    const retrieval = t.backend.container.get<RagRetrievalBackendService>(T.RagRetrievalService);
    const outsider = await retrieval.retrieve({
      query: 'remote work',
      executionContext: memberOf(orgA, owner, []),
      resourceTypes: [KD],
    });
    expect(outsider).toMatchObject({
      rows: [],
      refusedResourceTypes: [KD],
      searchStatus: 'not_attempted',
      chunkHitCount: 0,
    });
    const notACorpus = await retrieval.retrieve({
      query: 'remote work',
      executionContext: memberOf(orgA, owner),
      resourceTypes: ['todos', KD],
    });
    expect(notACorpus.refusedResourceTypes).toEqual(['todos']);
    expect(notACorpus.rows.length).toBeGreaterThan(0);
  });

  it('searches lexically without a provider and says so', async () => {
    const { retrieval, embeddings } = await retrievalWith({});
    expect(embeddings.resolveBinding()).toMatchObject({ status: 'absent', reason: 'missing_credentials' });
    const result = await retrieval.retrieve({
      query: 'remote work',
      executionContext: memberOf(orgA, owner),
      resourceTypes: [KD],
    });
    expect(result).toMatchObject({ mode: 'lexical', searchStatus: 'ok', embeddingStatus: 'absent' });
    expect(result.searches.map((search) => search.arm)).toEqual(['lexical']);
    expect(result.rows.map((row) => row.resourceId)).toContain(docA);
  });

  it('tells a broken provider from an absent one, and still answers lexically (degraded)', async () => {
    const misconfigured = await retrievalWith({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'ftp://nowhere' });
    expect(misconfigured.embeddings.resolveBinding()).toMatchObject({
      status: 'misconfigured',
      reason: 'invalid_base_url',
    });
    const { retrieval } = await retrievalWith({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: failing.baseURL });
    const result = await retrieval.retrieve({
      query: 'remote work',
      executionContext: memberOf(orgA, owner),
      resourceTypes: [KD],
    });
    expect(result).toMatchObject({ mode: 'hybrid', searchStatus: 'degraded', embeddingStatus: 'failed' });
    expect(result.searches).toEqual([
      expect.objectContaining({ arm: 'lexical', outcome: 'ran' }),
      expect.objectContaining({ arm: 'vector', outcome: 'failed' }),
    ]);
    expect(result.rows.map((row) => row.resourceId)).toContain(docA);
    expect(failing.requests.length).toBeGreaterThan(0);
    const broken = await misconfigured.retrieval.retrieve({
      query: 'remote work',
      executionContext: memberOf(orgA, owner),
      resourceTypes: [KD],
    });
    expect(broken).toMatchObject({ mode: 'hybrid', searchStatus: 'degraded', embeddingStatus: 'misconfigured' });
  });

  it('logs an execution error and answers a failed search with empty context (not an empty corpus)', async () => {
    const c = t.backend.container;
    const db = c.get<SqlDatabase>(T.Database);
    // The real database, with the lexical statement made to fail as a broken index or a lost connection would.
    const failingDatabase: SqlDatabase = Object.assign(Object.create(db) as SqlDatabase, {
      query: (text: string, params?: readonly unknown[]) =>
        text.includes('plainto_tsquery') ? Promise.reject(new Error('index corrupted')) : db.query(text, params),
    });
    const logger = recordingLogger();
    const { embeddings } = await retrievalWith({});
    const retrieval = new RagRetrievalBackendService({
      database: failingDatabase,
      registry: c.get<ResourcesRegistry>(T.ResourcesRegistry),
      roles: c.get<RoleHierarchyResolver>(T.RoleHierarchyResolver),
      ingestion: c.get<RagIngestionService>(T.RagIngestionService),
      embeddings,
      logger,
    });
    const result = await retrieval.retrieve({
      query: 'remote work',
      executionContext: memberOf(orgA, owner),
      resourceTypes: [KD],
    });
    expect(result).toMatchObject({ rows: [], searchStatus: 'failed', contextCharacters: 0, chunkHitCount: 0 });
    expect(result.searches).toEqual([{ resourceType: KD, arm: 'lexical', outcome: 'unknown', hits: 0 }]);
    expect(
      logger.lines.some(
        (line) => line.message === 'rag retrieval failed' && JSON.stringify(line).includes('index corrupted'),
      ),
    ).toBe(true);
    expect(JSON.stringify(result)).not.toContain('index corrupted');
  });

  it('reports truncation at the context budget (and none when it fits)', async () => {
    const retrieval = t.backend.container.get<RagRetrievalBackendService>(T.RagRetrievalService);
    const question = {
      query: 'handbook remote work rules',
      executionContext: memberOf(orgA, owner),
      resourceTypes: [KD],
      limit: 20,
    };
    const cut = await retrieval.retrieve({ ...question, maxContextCharacters: 600 });
    expect(cut.truncation).toMatchObject({ reachedContextCharacterBudget: true, maxContextCharacters: 600 });
    expect(cut.truncation.omittedPassages).toBeGreaterThan(0);
    expect(cut.contextCharacters).toBeLessThanOrEqual(600);
    expect(cut.contextCharacters).toBe(cut.rows.map((row) => row.contextText).join('\n\n').length);
    const whole = await retrieval.retrieve({ ...question, maxContextCharacters: 200_000 });
    expect(whole.truncation).toMatchObject({
      reachedContextCharacterBudget: false,
      omittedPassages: 0,
      omittedRows: 0,
    });
    expect(whole.contextCharacters).toBeGreaterThan(600);
  });

  it('treats vectors of another model as stale until the drain, run by the job queue, converges on the new one', async () => {
    // Shortened vectors (the API's `dimensions`) keep the test light; the model and the length both change.
    const large = await retrievalWith(env, 'text-embedding-3-large', 64);
    const total = Number(
      (await database().query<{ n: string }>('SELECT count(*) AS n FROM wildo_rag_chunks')).rows[0]?.n,
    );
    expect(await large.maintenance.embeddingBacklog()).toBe(total);
    const question = { query: 'remote work', executionContext: memberOf(orgA, owner), resourceTypes: [KD] };
    const stale = await large.retrieval.retrieve(question);
    expect(stale.searches.find((search) => search.arm === 'vector')).toMatchObject({ outcome: 'ran', hits: 0 });
    // Driven by the real job runner: the drain's queue, worker and schedules on the backend's pg-boss queue.
    const jobs = t.backend.container.get<JobQueueService>(JOBS_TYPES.JobQueueService);
    await startRagJobs(jobs, large.maintenance, { batchSize: 20 });
    expect(await jobs.listSchedules()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ queue: RAG_EMBEDDING_DRAIN_QUEUE, cron: RAG_EMBEDDING_DRAIN_CRON }),
        expect.objectContaining({ queue: RAG_SWEEP_QUEUE, cron: RAG_SWEEP_CRON }),
      ]),
    );
    const runs = Math.ceil(total / 20);
    const ids = await Promise.all(
      Array.from({ length: runs }, () => jobs.enqueue(RAG_EMBEDDING_DRAIN_QUEUE, { batchSize: 20 })),
    );
    await vi.waitFor(
      async () => {
        const states = await Promise.all(
          ids.map(async (id) => (await jobs.getJob(RAG_EMBEDDING_DRAIN_QUEUE, id ?? ''))?.state),
        );
        expect(states.every((state) => state === 'completed')).toBe(true);
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(await large.maintenance.embeddingBacklog()).toBe(0);
    const { rows } = await database().query<{ model: string; dims: number }>(
      'SELECT DISTINCT embedding_model AS model, embedding_dims AS dims FROM wildo_rag_chunks',
    );
    expect(rows).toEqual([{ model: 'text-embedding-3-large', dims: 64 }]);
    const converged = await large.retrieval.retrieve(question);
    expect(converged.searches.find((search) => search.arm === 'vector')?.hits).toBeGreaterThan(0);
  });
});
