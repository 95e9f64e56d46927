import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AnthropicAdapter } from '../src/engine/agents/providers/anthropic.adapter.js';
import type {
  ChatStreamEvent,
  ChatStreamRequest,
  LLMProviderAdapter,
} from '../src/engine/agents/providers/llm-provider.types.js';
import { createWildoBackend } from '../src/engine/container/wildo-backend.js';
import { createSilentLogger } from '../src/engine/logging/index.js';
import { createPgliteDatabase, createPostgresDatabase, type SqlDatabase } from '../src/engine/persistence/index.js';
import { referenceApplication } from '../src/modules/index.js';
import { readGeneratedRuntime } from '../src/testing/generated-runtime.js';
import { createBenchSchema, type BenchSchema } from './bench-postgres-schema.js';

/**
 * `pnpm bench:a2a`: the runtime's own overhead per blocking A2A `message/send` (JSON-RPC, a task stored, the
 * reply as an artifact) beside the same turn over the REST/SSE path, with the stub model in its own process
 * (read a todo, read it again, answer: three model calls, two tool calls). Provider wait is measured inside the
 * adapter and subtracted. The two paths alternate turn by turn so they share the machine's state. A benchmark,
 * not a test: it prints medians, p95 and the ratio, and asserts nothing.
 */

const WARMUP_TURNS = Number(process.env.BENCH_WARMUP ?? 40);
const MEASURED_TURNS = Number(process.env.BENCH_TURNS ?? 200);
const TARGET_RATIO = 1.2;

const progress = (message: string) => process.stderr.write(`${message}\n`);
let providerWaitMs = 0;

/** Counts every wait on the adapter's stream as provider time. */
function timed(adapter: LLMProviderAdapter & Required<Pick<LLMProviderAdapter, 'streamChat'>>): LLMProviderAdapter {
  const streamChat = adapter.streamChat.bind(adapter);
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

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  if (value === undefined) throw new Error('no samples');
  return value;
};

interface Sides {
  label: string;
  rest: number[];
  a2a: number[];
}

async function benchDatabase(label: string, database: SqlDatabase, stubUrl: string): Promise<Sides> {
  const backend = await createWildoBackend({
    application: referenceApplication,
    database,
    logger: createSilentLogger(),
    primarySecret: 'bench-primary-secret-0123456789-abcdefghijklmnop',
    runtime: await readGeneratedRuntime(),
    env: { ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: stubUrl },
    providers: { maxRetries: 0, adapterFactories: { anthropic: (options) => timed(new AnthropicAdapter(options)) } },
    http: { burst: { points: 1_000_000, durationMs: 1_000 } },
  });
  const server = backend.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const post = async (route: string, body: unknown, authorization?: string) => {
      const res = await fetch(`${url}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const email = `bench-${Date.now()}@example.test`;
    const signup = JSON.parse(
      (await post('/api/v1/auth/signup', { email, password: 'correct horse battery staple' })).text,
    );
    const bearer = `Bearer ${signup.data.accessToken as string}`;
    const orgId = JSON.parse((await post('/api/v1/organizations', { name: 'Bench' }, bearer)).text).data._id as string;
    const todoId = JSON.parse((await post(`/api/v1/organizations/${orgId}/todos`, { title: 'Benchmark' }, bearer)).text)
      .data._id as string;
    // Both paths run as the same principal: an organization API key (a machine member of the organization).
    const apiKey = JSON.parse(
      (await post(`/api/v1/organizations/${orgId}/api-keys`, { name: 'bench', roles: ['ORG_MEMBER'] }, bearer)).text,
    ).data.plainKey as string;
    const message = `What is the title of todo ${todoId}`;

    const rest = async () => {
      const res = await post(
        `/api/v1/organizations/${orgId}/flows-actors/systems/todo-assistant/turns`,
        { message },
        apiKey,
      );
      if (res.status !== 200 || !res.text.includes('"status":"completed"'))
        throw new Error(`REST turn: ${res.text.slice(0, 300)}`);
    };
    const a2a = async () => {
      const res = await post(
        '/api/v1/a2a/concierge',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              role: 'user',
              messageId: `m-${performance.now()}`,
              parts: [{ kind: 'text', text: message }],
            },
          },
        },
        apiKey,
      );
      if (!res.text.includes('"state":"completed"')) throw new Error(`A2A send: ${res.text.slice(0, 300)}`);
    };
    const overhead = async (turn: () => Promise<void>) => {
      providerWaitMs = 0;
      const start = performance.now();
      await turn();
      return performance.now() - start - providerWaitMs;
    };

    progress(`${label}: warming up (${WARMUP_TURNS} turns each)…`);
    for (let i = 0; i < WARMUP_TURNS; i++) {
      await rest();
      await a2a();
    }
    progress(`${label}: measuring ${MEASURED_TURNS} turns each, alternating…`);
    const sides: Sides = { label, rest: [], a2a: [] };
    for (let i = 0; i < MEASURED_TURNS; i++) {
      sides.rest.push(await overhead(rest));
      sides.a2a.push(await overhead(a2a));
    }
    return sides;
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await backend.close();
  }
}

function report(results: Sides[]): string {
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  const lines = [
    `Runtime overhead per turn (3 streamed model calls, 2 tool calls), ${MEASURED_TURNS} turns per path, client time minus provider wait:`,
    '',
    `${'database'.padEnd(20)} ${'REST/SSE median/p95'.padStart(22)} ${'A2A message/send median/p95'.padStart(30)} ${'ratio (median)'.padStart(15)}`,
  ];
  for (const r of results) {
    const ratio = quantile(r.a2a, 0.5) / quantile(r.rest, 0.5);
    lines.push(
      `${r.label.padEnd(20)} ${`${fmt(quantile(r.rest, 0.5))} / ${fmt(quantile(r.rest, 0.95))}`.padStart(22)} ${`${fmt(quantile(r.a2a, 0.5))} / ${fmt(quantile(r.a2a, 0.95))}`.padStart(30)} ${`${ratio.toFixed(2)}x`.padStart(15)}`,
    );
  }
  lines.push('', `Target: A2A within ${TARGET_RATIO}x of the REST/SSE path.`);
  return lines.join('\n');
}

/** The stub model of `bench:agents`, in its own process. */
async function startStubProcess(): Promise<{ url: string; child: ChildProcess }> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'agents-stub-process.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [url] = (await Promise.race([
    once(createInterface({ input: child.stdout }), 'line'),
    once(child, 'exit').then(() => {
      throw new Error('the stub process exited');
    }),
  ])) as [string];
  return { url, child };
}

async function main(): Promise<void> {
  const stub = await startStubProcess();
  const results: Sides[] = [];
  let schema: BenchSchema | undefined;
  try {
    if (process.env.BENCH_SKIP_PGLITE !== '1') {
      const pglite = await createPgliteDatabase();
      try {
        results.push(await benchDatabase('PGlite (in memory)', pglite, stub.url));
      } finally {
        await pglite.close();
      }
    }
    const databaseUrl = process.env.DATABASE_URL;
    if (databaseUrl) {
      schema = await createBenchSchema(databaseUrl);
      const postgres = await createPostgresDatabase({ connectionString: databaseUrl, searchPath: schema.name });
      try {
        results.push(await benchDatabase('PostgreSQL', postgres, stub.url));
      } finally {
        await postgres.close();
      }
    }
  } finally {
    await schema?.drop();
    stub.child.kill('SIGTERM');
  }
  process.stdout.write(`\n${report(results)}\n`);
}

main().catch((error: unknown) => {
  process.exitCode = 1;
  progress(`bench:a2a failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
});
