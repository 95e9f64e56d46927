import { parseBenchArgs, USAGE, type BenchOptions } from './bench-args.js';
import { assertAnswersTodo, runLoad, type LoadRequest, type LoadSettings } from './bench-load.js';
import { createBenchSchema } from './bench-postgres-schema.js';
import type { BenchTarget } from './bench-protocol.js';
import { buildReport, compare, formatReport, type RoundResult, type TargetResult } from './bench-report.js';
import { benchRunResources, startBenchServer, type BenchServerProcess } from './bench-server-process.js';

/**
 * `pnpm bench:rest`: throughput of `GET` one todo through the full framework pipeline (user token,
 * context, authorization, burst throttle, store, projection) against a bare Express handler doing the
 * same SQL read on the same database, and their ratio — on PGlite, and on PostgreSQL when DATABASE_URL
 * is set. A benchmark, not a test: it prints ratios measured side by side in one run and asserts no time.
 */

/** Progress goes to stderr, so stdout carries only the report (and stays parseable with `--json`). */
const progress = (message: string) => process.stderr.write(`${message}\n`);

const { schemas, release: releaseAll } = benchRunResources(progress);

/** One round against one side, with the server child's CPU time spent meanwhile. */
async function measureRound(
  server: BenchServerProcess,
  side: LoadRequest,
  settings: LoadSettings,
): Promise<RoundResult> {
  const before = await server.cpuMicros();
  const load = await runLoad(side, settings);
  const after = await server.cpuMicros();
  return { ...load, serverCpuMicrosPerRequest: (after - before) / load.requests };
}

/** Warms both servers up, then measures them alternately: a drift of the machine (heat, neighbours, GC of this runner) hits both sides alike. */
async function measureAlternately(
  label: string,
  server: BenchServerProcess,
  framework: LoadRequest,
  bare: LoadRequest,
  options: BenchOptions,
) {
  progress(`${label}: warming up (${options.warmupSeconds} s each)…`);
  for (const side of [framework, bare])
    await runLoad(side, { connections: options.connections, durationSeconds: options.warmupSeconds });

  const rounds = { framework: [] as RoundResult[], bare: [] as RoundResult[] };
  for (let round = 1; round <= options.rounds; round++) {
    for (const side of [framework, bare]) {
      const result = await measureRound(server, side, {
        connections: options.connections,
        durationSeconds: options.durationSeconds,
      });
      rounds[side === framework ? 'framework' : 'bare'].push(result);
      const cpu = `${Math.round(result.serverCpuMicrosPerRequest)} µs CPU/req`;
      progress(
        `${label}: round ${round}/${options.rounds} ${side.label.padEnd(9)} ${Math.round(result.requestsPerSecond)} req/s, ${cpu}`,
      );
    }
  }
  return rounds;
}

async function benchTarget(label: string, target: BenchTarget, options: BenchOptions): Promise<TargetResult> {
  progress(`${label}: starting the server child…`);
  const server = await startBenchServer(
    target,
    options.cpuProfDir === undefined ? {} : { cpuProfDir: options.cpuProfDir },
  );
  try {
    const { frameworkUrl, bareUrl, todoPath, todoId, token } = server.ready;
    // The same request (token included) to both: only the server that answers it differs.
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const framework: LoadRequest = { label: 'framework', url: `${frameworkUrl}${todoPath}`, headers };
    const bare: LoadRequest = { label: 'bare', url: `${bareUrl}${todoPath}`, headers };
    await assertAnswersTodo(framework, todoId);
    await assertAnswersTodo(bare, todoId);

    const rounds = await measureAlternately(label, server, framework, bare, options);
    return compare(target.backend, label, rounds.framework, rounds.bare);
  } finally {
    await server.stop();
  }
}

async function benchPostgres(connectionString: string, options: BenchOptions): Promise<TargetResult> {
  const schema = await createBenchSchema(connectionString);
  schemas.add(schema);
  try {
    return await benchTarget(
      `PostgreSQL (schema ${schema.name})`,
      { backend: 'postgres', connectionString, schema: schema.name },
      options,
    );
  } finally {
    await schema.drop();
    schemas.delete(schema);
  }
}

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const results: TargetResult[] = [await benchTarget('PGlite (in memory)', { backend: 'pglite' }, options)];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) results.push(await benchPostgres(databaseUrl, options));
  else progress('DATABASE_URL is not set: PostgreSQL is skipped.');

  const report = buildReport(options, results);
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `\n${formatReport(report)}\n`);
}

main().catch(async (error: unknown) => {
  process.exitCode = 1;
  progress(`bench:rest failed: ${error instanceof Error ? error.message : String(error)}`);
  await releaseAll();
});
