import { parseBenchArgs, USAGE, type BenchOptions } from './bench-args.js';
import { assertAnswersTodo, type LoadRequest } from './bench-load.js';
import { measureAlternately } from './bench-rounds.js';
import { createBenchSchema } from './bench-postgres-schema.js';
import type { BenchTarget } from './bench-protocol.js';
import { buildReport, compare, formatReport, type TargetResult } from './bench-report.js';
import { benchRunResources, startBenchServer } from './bench-server-process.js';

/**
 * `pnpm bench:rest`: throughput of `GET` one todo through the full framework pipeline (user token,
 * context, authorization, burst throttle, store, projection) against a bare Express handler doing the
 * same SQL read on the same database, and their ratio — on PGlite, and on PostgreSQL when DATABASE_URL
 * is set. A benchmark, not a test: it prints ratios measured side by side in one run and asserts no time.
 */

/** Progress goes to stderr, so stdout carries only the report (and stays parseable with `--json`). */
const progress = (message: string) => process.stderr.write(`${message}\n`);

const { schemas, release: releaseAll } = benchRunResources(progress);

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

    const rounds = await measureAlternately(label, server, framework, bare, options, progress);
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
