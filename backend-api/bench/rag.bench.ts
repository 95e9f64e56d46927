import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CORE_ORG_ROLES, ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { createWildoBackend, type WildoBackend } from '../src/engine/bootstrap/wildo-backend.js';
import { SAAS_SERVICE_TYPES as T } from '../src/engine/container/saas-service-types.tokens.js';
import { createSilentLogger } from '../src/engine/logging/index.js';
import { createPgliteDatabase } from '../src/engine/persistence/pglite-database.js';
import { createPostgresDatabase } from '../src/engine/persistence/postgres-database.js';
import type { ResourceStore } from '../src/engine/persistence/resource-store.js';
import type { SqlDatabase } from '../src/engine/persistence/sql-database.js';
import { lexicalStatement } from '../src/engine/rag/retrieval/retrieval-statements.js';
import type { RagRetrievalBackendService } from '../src/engine/rag/retrieval/rag-retrieval.service.js';
import type { ExecutionContext } from '../src/engine/resources/execution-context.js';
import type { ResourcesRegistry } from '../src/engine/resources/resources-registry.service.js';
import { referenceApplication } from '../src/modules/index.js';
import { readGeneratedRuntime } from '../src/testing/generated-runtime.js';
import { createBenchSchema } from './bench-postgres-schema.js';
import { syntheticDocument, syntheticQuestions, vocabulary } from './rag-bench-corpus.js';

/**
 * `pnpm bench:rag`: RAG ingestion throughput (chunks per second through the live write path: record insert,
 * chunking and chunk rows in one transaction) and retrieval latency (median and p95 of
 * `RagRetrievalBackendService.retrieve`, lexical mode) for 1 000 and 20 000 knowledge documents, beside the
 * latency of the bare SQL statement retrieval issues (the same text and parameters), and their ratio — on
 * PGlite, and on PostgreSQL when DATABASE_URL is set. Target: retrieval within 1.5x of its bare SQL. A
 * benchmark, not a test: it prints measurements and asserts no time.
 *
 * Options: `--sizes 1000,20000` (cumulative corpus sizes), `--queries 200` (measured per side), `--json`.
 */

const TARGET_RATIO = 1.5;
const ORGANIZATIONS = 10;
const KD = 'knowledge-documents';
const progress = (message: string) => process.stderr.write(`${message}\n`);

interface Options {
  sizes: number[];
  queries: number;
  json: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { sizes: [1_000, 20_000], queries: 200, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--sizes') options.sizes = String(argv[++i]).split(',').map(Number);
    else if (arg === '--queries') options.queries = Number(argv[++i]);
    else if (arg !== '--')
      throw new Error(`Unknown option ${arg}. Usage: pnpm bench:rag [--sizes 1000,20000] [--queries 200] [--json]`);
  }
  if (options.sizes.some((n) => !Number.isInteger(n) || n <= 0) || !(options.queries > 0))
    throw new Error('--sizes and --queries take positive integers.');
  return options;
}

interface Latency {
  medianMs: number;
  p95Ms: number;
}

interface SizeResult {
  documents: number;
  ingestion: { documents: number; chunks: number; seconds: number; chunksPerSecond: number };
  retrieval: Latency;
  bareSql: Latency;
  ratio: number;
  meetsTarget: boolean;
  meanRowsPerQuery: number;
}

function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { medianMs: round(at(0.5)), p95Ms: round(at(0.95)) };
}

const round = (value: number) => Math.round(value * 1_000) / 1_000;

function memberOf(organizationId: string): ExecutionContext {
  return {
    executionType: ExecutionContext_ExecutionType.USER,
    initiatorIds: { userId: 'bench-user', organizationId },
    initiatorRoles: [CORE_ORG_ROLES.ORG_MEMBER],
    tenant: { kind: 'organization', organizationId },
    surface: 'internal',
    requestId: randomUUID(),
    callTimestamp: new Date().toISOString(),
  };
}

async function chunkCount(database: SqlDatabase): Promise<number> {
  const { rows } = await database.query<{ n: string }>('SELECT count(*) AS n FROM wildo_rag_chunks');
  return Number(rows[0]?.n ?? 0);
}

/** Inserts documents `from..to-1` through the store the engine serves (ingestion in each write's transaction). */
async function ingest(
  backend: WildoBackend,
  database: SqlDatabase,
  from: number,
  to: number,
  words: readonly string[],
) {
  const store = backend.container.get<ResourceStore>(T.ResourceStore);
  const definition = backend.container.get<ResourcesRegistry>(T.ResourcesRegistry).getResource(KD).storeDefinition;
  const before = await chunkCount(database);
  const started = performance.now();
  for (let index = from; index < to; index++) {
    const organizationId = `bench-org-${index % ORGANIZATIONS}`;
    await store.insert(
      definition,
      { kind: 'organization', organizationId },
      {
        data: syntheticDocument(index, words),
        creator: { userId: 'bench-user', principalType: 'USER', principalId: 'bench-user' },
      },
    );
    if ((index + 1) % 2_000 === 0) progress(`  ingested ${index + 1} documents`);
  }
  const seconds = (performance.now() - started) / 1_000;
  const chunks = (await chunkCount(database)) - before;
  return { documents: to - from, chunks, seconds: round(seconds), chunksPerSecond: Math.round(chunks / seconds) };
}

/** Retrieval and its bare statement, alternated query by query so drift of the machine hits both alike. */
async function measure(backend: WildoBackend, database: SqlDatabase, questions: readonly string[]) {
  const retrieval = backend.container.get<RagRetrievalBackendService>(T.RagRetrievalService);
  const statement = lexicalStatement('organization', false);
  const framework: number[] = [];
  const bare: number[] = [];
  let rows = 0;
  const warmup = Math.min(50, questions.length);
  for (let i = 0; i < questions.length + warmup; i++) {
    const query = questions[i % questions.length] ?? '';
    const organizationId = `bench-org-${i % ORGANIZATIONS}`;
    // Each side goes first on every other question, so neither always finds the other's pages warm.
    const bareFirst = i % 2 === 0;
    const runBare = async () => {
      const started = performance.now();
      // Exactly what retrieval sends here: the same text and parameters (default limit 8 → 32 candidates).
      const bind = { resourceType: KD, scopeId: organizationId, query, limit: 32 };
      await database.query(statement.text, statement.bind(bind), { prepare: true });
      return performance.now() - started;
    };
    const bareBefore = bareFirst ? await runBare() : 0;
    const t0 = performance.now();
    const result = await retrieval.retrieve({ query, executionContext: memberOf(organizationId), resourceTypes: [KD] });
    const frameworkMs = performance.now() - t0;
    const bareMs = bareFirst ? bareBefore : await runBare();
    if (result.searchStatus !== 'ok') throw new Error(`retrieval answered ${result.searchStatus}`);
    if (i < warmup) continue;
    framework.push(frameworkMs);
    bare.push(bareMs);
    rows += result.rows.length;
  }
  return { retrieval: latency(framework), bareSql: latency(bare), meanRowsPerQuery: round(rows / questions.length) };
}

async function runOn(
  label: string,
  database: SqlDatabase,
  options: Options,
): Promise<{ database: string; sizes: SizeResult[] }> {
  // No embeddings provider: retrieval runs its lexical arm, one statement per corpus, which the bare side repeats.
  const backend = await createWildoBackend({
    application: referenceApplication,
    database,
    logger: createSilentLogger(),
    runtime: await readGeneratedRuntime(),
    env: {},
    primarySecret: 'bench-primary-secret-0123456789-abcdefghijklmnop',
  });
  const words = vocabulary(3_000);
  const questions = syntheticQuestions(options.queries, words);
  const sizes: SizeResult[] = [];
  try {
    let ingested = 0;
    for (const size of options.sizes) {
      progress(`${label}: ingesting up to ${size} documents…`);
      const ingestion = await ingest(backend, database, ingested, size, words);
      ingested = size;
      await database.query('ANALYZE wildo_rag_chunks');
      progress(`${label}: ${ingestion.chunksPerSecond} chunks/s; measuring ${options.queries} questions…`);
      const measured = await measure(backend, database, questions);
      const ratio = round(measured.retrieval.medianMs / measured.bareSql.medianMs);
      sizes.push({ documents: size, ingestion, ...measured, ratio, meetsTarget: ratio <= TARGET_RATIO });
    }
  } finally {
    await backend.close();
  }
  return { database: label, sizes };
}

function format(results: { database: string; sizes: SizeResult[] }[]): string {
  const lines = [`RAG benchmark (target: retrieval median within ${TARGET_RATIO}x of its bare SQL)`];
  for (const { database, sizes } of results) {
    lines.push('', database);
    lines.push('  documents  ingest chunks/s  retrieval median / p95 ms  bare SQL median / p95 ms  ratio  rows/query');
    for (const s of sizes) {
      lines.push(
        `  ${String(s.documents).padStart(9)}  ${String(s.ingestion.chunksPerSecond).padStart(15)}  ` +
          `${`${s.retrieval.medianMs} / ${s.retrieval.p95Ms}`.padStart(25)}  ${`${s.bareSql.medianMs} / ${s.bareSql.p95Ms}`.padStart(24)}  ` +
          `${`${s.ratio}x`.padStart(5)}${s.meetsTarget ? ' ' : '!'}  ${String(s.meanRowsPerQuery).padStart(10)}`,
      );
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const results = [];
  const pglite = await createPgliteDatabase();
  try {
    results.push(await runOn('PGlite (in memory)', pglite, options));
  } finally {
    await pglite.close();
  }
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = await createBenchSchema(url);
    try {
      const postgres = await createPostgresDatabase({ connectionString: url, searchPath: schema.name });
      try {
        results.push(await runOn('PostgreSQL (DATABASE_URL)', postgres, options));
      } finally {
        await postgres.close();
      }
    } finally {
      await schema.drop();
    }
  } else progress('DATABASE_URL is not set: PostgreSQL skipped.');
  process.stdout.write(`${options.json ? JSON.stringify(results, null, 2) : format(results)}\n`);
}

await main();
