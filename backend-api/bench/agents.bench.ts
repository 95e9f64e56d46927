import { performance } from 'node:perf_hooks';
import { createWildoBackend, type WildoBackend } from '../src/engine/container/wildo-backend.js';
import { AnthropicAdapter } from '../src/engine/agents/providers/anthropic.adapter.js';
import type { ChatStreamEvent, ChatStreamRequest, LLMProviderAdapter } from '../src/engine/agents/providers/llm-provider.types.js';
import { createSilentLogger } from '../src/engine/logging/index.js';
import { createPgliteDatabase, createPostgresDatabase, type SqlDatabase } from '../src/engine/persistence/index.js';
import { referenceApplication } from '../src/modules/index.js';
import { parseSse } from '../src/testing/agents.fixtures.js';
import { readGeneratedRuntime } from '../src/testing/generated-runtime.js';
import { AnthropicStub, textReply, toolCallsReply, type StubRequest } from '../src/testing/llm-stubs/index.js';
import { createBenchSchema, type BenchSchema } from './bench-postgres-schema.js';

/**
 * `pnpm bench:agents`: the agents runtime's own overhead per streaming turn with two tool calls. Each turn
 * is a real HTTP request to the reference todo assistant: admission, budget check, conversation persistence,
 * three streamed model calls to a local Anthropic stub (read a todo, read it again, answer), two tool calls
 * dispatched through the shared path, SSE to the client. The time spent waiting on the provider (SDK, HTTP,
 * stub) is measured inside the adapter's stream and subtracted from the client-side total. A benchmark, not
 * a test: it prints medians and p95 measured in one run and asserts no time.
 */

const WARMUP_TURNS = Number(process.env.BENCH_WARMUP ?? 40);
const MEASURED_TURNS = Number(process.env.BENCH_TURNS ?? 300);
const TARGET_MEDIAN_MS = 5;

const progress = (message: string) => process.stderr.write(`${message}\n`);

/** Time spent waiting on the provider during the current turn. */
let providerWaitMs = 0;

/** Wraps an adapter so every wait on its stream (SDK, HTTP, stub) is counted as provider time. */
function timed(adapter: LLMProviderAdapter): LLMProviderAdapter {
  const streamChat = adapter.streamChat!.bind(adapter);
  return {
    ref: adapter.ref,
    async *streamChat(request: ChatStreamRequest): AsyncGenerator<ChatStreamEvent> {
      let start = performance.now();
      const iterator = streamChat(request)[Symbol.asyncIterator]();
      for (;;) {
        const next = await iterator.next();
        providerWaitMs += performance.now() - start;
        if (next.done) return;
        yield next.value;
        start = performance.now();
      }
    },
  };
}

/** The model's script: read the todo, read it again, then answer (decided from the conversation so far). */
function script(todoId: string) {
  return (request: StubRequest) => {
    // Every turn starts a new conversation, so the model's round is the number of its earlier answers.
    const messages = (request.body as { messages: { role: string }[] }).messages;
    const round = messages.filter((m) => m.role === 'assistant').length;
    if (round === 0) return toolCallsReply([{ id: 'read-1', name: 'resource_todos_read', arguments: { id: todoId } }], { usage: { inputTokens: 300, outputTokens: 20 } });
    if (round === 1) return toolCallsReply([{ id: 'read-2', name: 'resource_todos_read', arguments: { id: todoId } }], { usage: { inputTokens: 340, outputTokens: 20 } });
    return textReply('Your todo is called "Benchmark the runtime".', { usage: { inputTokens: 380, outputTokens: 12 } });
  };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

interface Measured {
  label: string;
  total: number[];
  provider: number[];
  overhead: number[];
}

async function benchDatabase(label: string, database: SqlDatabase, stub: AnthropicStub): Promise<Measured> {
  if (process.env.BENCH_PROFILE_SQL) {
    const stats = new Map<string, { n: number; ms: number }>();
    const wrap = (db: SqlDatabase) => {
      const q = db.query.bind(db);
      (db as { query: SqlDatabase['query'] }).query = (async (sql: string, params?: unknown[]) => {
        const t0 = performance.now();
        try { return await q(sql, params as never); } finally {
          const key = sql.replace(/\s+/g, ' ').slice(0, 90);
          const e = stats.get(key) ?? { n: 0, ms: 0 }; e.n++; e.ms += performance.now() - t0; stats.set(key, e);
        }
      }) as SqlDatabase['query'];
      if (!db.transaction) return;
      const tx = db.transaction.bind(db);
      (db as { transaction: SqlDatabase['transaction'] }).transaction = ((fn: (t: SqlDatabase) => Promise<unknown>) => tx((t) => { wrap(t as SqlDatabase); return fn(t as SqlDatabase); })) as SqlDatabase['transaction'];
    };
    wrap(database);
    process.on('exit', () => { for (const [k, v] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30)) process.stderr.write(`${String(v.n).padStart(6)} ${v.ms.toFixed(0).padStart(7)}ms ${k}\n`); });
  }
  const backend: WildoBackend = await createWildoBackend({
    application: referenceApplication,
    database,
    logger: createSilentLogger(),
    primarySecret: 'bench-primary-secret-0123456789-abcdefghijklmnop',
    runtime: await readGeneratedRuntime(),
    env: { ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: stub.baseURL },
    providers: { maxRetries: 0, adapterFactories: { anthropic: (options) => timed(new AnthropicAdapter(options)) } },
    http: { burst: { points: 1_000_000, durationMs: 1_000 } },
  });
  const { server, url } = await backend.listen(0, '127.0.0.1');
  try {
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      return { status: res.status, text: await res.text() };
    };
    const signup = JSON.parse((await post('/api/v1/auth/signup', { email: `bench-${Date.now()}@example.test`, password: 'correct horse battery staple' })).text);
    const token = signup.data.accessToken as string;
    const orgId = JSON.parse((await post('/api/v1/organizations', { name: 'Bench' }, token)).text).data._id as string;
    const todoId = JSON.parse((await post(`/api/v1/organizations/${orgId}/todos`, { title: 'Benchmark the runtime' }, token)).text).data._id as string;
    stub.setFallback(script(todoId));
    const path = `/api/v1/organizations/${orgId}/flows-actors/systems/todo-assistant/turns`;

    const turn = async () => {
      providerWaitMs = 0;
      const start = performance.now();
      const res = await post(path, { message: 'What is my todo called?' }, token);
      const total = performance.now() - start;
      const events = parseSse(res.text);
      const results = events.filter((e) => e.event === 'tool_result' && e.data.outcome.ok === true).length;
      if (res.status !== 200 || results !== 2 || events.at(-1)?.data.status !== 'completed') {
        throw new Error(`unexpected turn (HTTP ${res.status}): ${res.text.slice(0, 500)}`);
      }
      return { total, provider: providerWaitMs };
    };

    progress(`${label}: warming up (${WARMUP_TURNS} turns)…`);
    for (let i = 0; i < WARMUP_TURNS; i++) await turn();
    progress(`${label}: measuring ${MEASURED_TURNS} turns…`);
    const measured: Measured = { label, total: [], provider: [], overhead: [] };
    for (let i = 0; i < MEASURED_TURNS; i++) {
      const { total, provider } = await turn();
      measured.total.push(total);
      measured.provider.push(provider);
      measured.overhead.push(total - provider);
    }
    return measured;
  } finally {
    server.close();
    await backend.close();
    stub.setFallback(undefined);
    stub.reset();
  }
}

function report(results: Measured[]): string {
  const lines = ['Agents runtime overhead per streaming turn (3 model calls, 2 tool calls, SSE), total minus provider wait', ''];
  lines.push(`${'database'.padEnd(22)} ${'overhead median'.padStart(16)} ${'overhead p95'.padStart(13)} ${'total median'.padStart(13)} ${'provider median'.padStart(16)}`);
  for (const r of results) {
    const s = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const overhead = s(r.overhead);
    lines.push(
      `${r.label.padEnd(22)} ${fmt(quantile(overhead, 0.5)).padStart(16)} ${fmt(quantile(overhead, 0.95)).padStart(13)} ${fmt(quantile(s(r.total), 0.5)).padStart(13)} ${fmt(quantile(s(r.provider), 0.5)).padStart(16)}`,
    );
  }
  lines.push('', `Target: overhead median under ${TARGET_MEDIAN_MS} ms.`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const stub = await new AnthropicStub().start();
  const results: Measured[] = [];
  let schema: BenchSchema | undefined;
  try {
    const pglite = await createPgliteDatabase();
    try {
      results.push(await benchDatabase('PGlite (in memory)', pglite, stub));
    } finally {
      await pglite.close();
    }
    const databaseUrl = process.env.DATABASE_URL;
    if (databaseUrl) {
      schema = await createBenchSchema(databaseUrl);
      const postgres = await createPostgresDatabase({ connectionString: databaseUrl, searchPath: schema.name });
      try {
        results.push(await benchDatabase('PostgreSQL', postgres, stub));
      } finally {
        await postgres.close();
      }
    } else {
      progress('DATABASE_URL is not set: PostgreSQL is skipped.');
    }
  } finally {
    await schema?.drop();
    await stub.close();
  }
  process.stdout.write(`\n${report(results)}\n`);
}

main().catch((error: unknown) => {
  process.exitCode = 1;
  progress(`bench:agents failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
});
