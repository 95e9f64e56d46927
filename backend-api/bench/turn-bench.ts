import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
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
import { createWildoBackend, type WildoBackend } from '../src/engine/bootstrap/wildo-backend.js';
import { createSilentLogger } from '../src/engine/logging/index.js';
import { createPgliteDatabase, createPostgresDatabase, type SqlDatabase } from '../src/engine/persistence/index.js';
import { referenceApplication } from '../src/modules/index.js';
import { readGeneratedRuntime } from '../src/testing/generated-runtime.js';
import { createBenchSchema, type BenchSchema } from './bench-postgres-schema.js';

// What `bench:agents` and `bench:a2a` share: the stub model in its own process, the reference backend whose
// Anthropic adapter counts the time spent waiting on the provider, quantiles, and the run on PGlite then
// PostgreSQL.

/** Milliseconds spent waiting on the provider since the bench last set `ms` to 0. */
export const providerWait = { ms: 0 };

/** Counts every wait on the adapter's stream (SDK, HTTP, stub) as provider time. */
function timed(adapter: LLMProviderAdapter & Required<Pick<LLMProviderAdapter, 'streamChat'>>): LLMProviderAdapter {
  const streamChat = adapter.streamChat.bind(adapter);
  return {
    ref: adapter.ref,
    async *streamChat(request: ChatStreamRequest): AsyncGenerator<ChatStreamEvent> {
      let start = performance.now();
      const iterator = streamChat(request)[Symbol.asyncIterator]();
      for (;;) {
        const next = await iterator.next();
        providerWait.ms += performance.now() - start;
        if (next.done) return;
        yield next.value;
        start = performance.now();
      }
    },
  };
}

/** The reference application on `database`, its model at the stub, its adapter timed, no rate limit in the way. */
export async function createTurnBenchBackend(database: SqlDatabase, stubUrl: string): Promise<WildoBackend> {
  return createWildoBackend({
    application: referenceApplication,
    database,
    logger: createSilentLogger(),
    primarySecret: 'bench-primary-secret-0123456789-abcdefghijklmnop',
    runtime: await readGeneratedRuntime(),
    env: { ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: stubUrl },
    providers: { maxRetries: 0, adapterFactories: { anthropic: (options) => timed(new AnthropicAdapter(options)) } },
    http: { burst: { points: 1_000_000, durationMs: 1_000 } },
  });
}

/** The `q` quantile of `values` (unsorted). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  if (value === undefined) throw new Error('quantile of no samples: the bench measured no turns');
  return value;
}

export const formatMs = (ms: number) => `${ms.toFixed(2)} ms`;
export const progress = (message: string) => process.stderr.write(`${message}\n`);

/** Starts the stub model in its own process and returns its base URL. */
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

/**
 * Runs `bench` on in-memory PGlite (unless `BENCH_SKIP_PGLITE=1`) and, with `DATABASE_URL`, on PostgreSQL in a
 * schema of its own, against one stub process; prints `report` of the results, or the failure (exit code 1).
 */
export async function runTurnBench<T>(
  name: string,
  bench: (label: string, database: SqlDatabase, stubUrl: string) => Promise<T>,
  report: (results: T[]) => string,
): Promise<void> {
  const stub = await startStubProcess();
  const results: T[] = [];
  let schema: BenchSchema | undefined;
  try {
    if (process.env.BENCH_SKIP_PGLITE !== '1') {
      const pglite = await createPgliteDatabase();
      try {
        results.push(await bench('PGlite (in memory)', pglite, stub.url));
      } finally {
        await pglite.close();
      }
    }
    const databaseUrl = process.env.DATABASE_URL;
    if (databaseUrl) {
      schema = await createBenchSchema(databaseUrl);
      const postgres = await createPostgresDatabase({ connectionString: databaseUrl, searchPath: schema.name });
      try {
        results.push(await bench('PostgreSQL', postgres, stub.url));
      } finally {
        await postgres.close();
      }
    } else {
      progress('DATABASE_URL is not set: PostgreSQL is skipped.');
    }
    process.stdout.write(`\n${report(results)}\n`);
  } catch (error) {
    process.exitCode = 1;
    progress(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await schema?.drop();
    stub.child.kill('SIGTERM');
  }
}
