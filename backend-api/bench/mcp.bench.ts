import { parseBenchArgs, type BenchOptions } from './bench-args.js';
import { BenchResponseError, runLoad, type LoadRequest } from './bench-load.js';
import { createBenchSchema } from './bench-postgres-schema.js';
import type { BenchTarget } from './bench-protocol.js';
import { measureRound } from './bench-rounds.js';
import type { RoundResult } from './bench-report.js';
import { benchRunResources, startBenchServer } from './bench-server-process.js';
import { MCP_BENCH_REVISION, MCP_BENCH_TOOL, toolCall, type McpBenchServerReady } from './mcp-bench-protocol.js';
import {
  buildMcpReport,
  compareMcp,
  formatMcpReport,
  type McpBenchReport,
  type McpTargetResult,
} from './mcp-bench-report.js';

/**
 * `pnpm bench:mcp`: `tools/call` throughput of a simple read tool (`todos__read`) through our MCP endpoint with a
 * valid credential (authentication, audience, execution context, authorization, rate-limit policy and burst
 * throttle, input contract, store, projection) against a minimal stateless server built directly on the official
 * SDK serving the same tool with the same SQL read on the same database, at the same revision (2026-07-28,
 * stateless), and against a plain Express JSON handler answering the same request with the same read, measured
 * in rotation in one run; medians, both ratios and the verdicts against the 80% (SDK) and 70% (JSON) targets.
 */

const USAGE = `Usage: pnpm bench:mcp [--json] [--api-key] [--duration <s>] [--connections <n>] [--rounds <n>] [--warmup <s>] [--cpu-prof <dir>]

Measures tools/call ${MCP_BENCH_TOOL} at ${MCP_BENCH_REVISION} through our /api/v1/mcp (a person's delegated token, or
with --api-key an organization API key) against a minimal stateless server on @modelcontextprotocol/server 2.4.0 +
@modelcontextprotocol/node 2.1.2 doing the same SQL read, and against a plain Express JSON handler answering the same
request with the same read, on PGlite and, when DATABASE_URL is set, on PostgreSQL.

  --json             print the results as one JSON object on stdout (progress goes to stderr)
  --api-key          authenticate with an organization API key instead of a delegated token
  --duration <s>     seconds per measured round (default 5)
  --connections <n>  concurrent keep-alive connections (default 10)
  --rounds <n>       measured rounds per server, rotating (default 3; the medians are reported)
  --warmup <s>       seconds of unmeasured load per server first (default 8)
  --cpu-prof <dir>   write a V8 CPU profile of each server child into <dir>`;

const SERVER_SCRIPT = new URL('./mcp-bench-server.ts', import.meta.url).pathname;
const progress = (message: string) => process.stderr.write(`${message}\n`);
const { schemas, release: releaseAll } = benchRunResources(progress);

/** One request before (and after) the load: a 200 with a successful result holding the seeded todo. */
async function assertAnswersTool(request: LoadRequest, todoId: string): Promise<void> {
  const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body ?? null });
  const text = await response.text();
  if (response.status !== 200)
    throw new BenchResponseError(`${request.label} (${request.url}) answered ${response.status}: ${text}`);
  const result = (
    JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: { _id?: unknown; id?: unknown } } }
  ).result;
  const record = result?.structuredContent;
  // Ours projects the record (`_id`); the bare tool returns the row (`id`).
  if (result?.isError === true || (record?._id !== todoId && record?.id !== todoId)) {
    throw new BenchResponseError(
      `${request.label} (${request.url}) did not return todo ${todoId}: ${text.slice(0, 500)}`,
    );
  }
}

async function benchTarget(
  label: string,
  target: BenchTarget,
  options: BenchOptions,
  useApiKey: boolean,
): Promise<McpTargetResult> {
  progress(`${label}: starting the server child…`);
  const server = await startBenchServer<McpBenchServerReady>(target, {
    script: SERVER_SCRIPT,
    ...(options.cpuProfDir === undefined ? {} : { cpuProfDir: options.cpuProfDir }),
  });
  try {
    const { ready } = server;
    const authorization = useApiKey ? ready.credentials.apiKey : ready.credentials.token;
    const sides = {
      ours: toolCall('ours', ready.frameworkUrl, ready, authorization),
      bareSdk: toolCall('bare SDK', ready.bareUrl, ready, authorization),
      bareJson: toolCall('bare JSON', ready.bareJsonUrl, ready, authorization),
    };
    const order = Object.keys(sides) as (keyof typeof sides)[];
    for (const key of order) await assertAnswersTool(sides[key], ready.todoId);

    progress(`${label}: warming up (${options.warmupSeconds} s each)…`);
    for (const key of order)
      await runLoad(sides[key], { connections: options.connections, durationSeconds: options.warmupSeconds });
    const rounds = { ours: [] as RoundResult[], bareSdk: [] as RoundResult[], bareJson: [] as RoundResult[] };
    for (let round = 1; round <= options.rounds; round++) {
      // Rotate which side goes first, so none always follows another's garbage.
      const shift = (round - 1) % order.length;
      for (const key of [...order.slice(shift), ...order.slice(0, shift)]) {
        const side = sides[key];
        const result = await measureRound(server, side, {
          connections: options.connections,
          durationSeconds: options.durationSeconds,
        });
        rounds[key].push(result);
        progress(
          `${label}: round ${round}/${options.rounds} ${side.label.padEnd(9)} ${Math.round(result.requestsPerSecond)} req/s, ${Math.round(result.serverCpuMicrosPerRequest)} µs CPU/req`,
        );
      }
    }
    // Still answering the todo (no credential expired, no throttle kicked in) after the load.
    for (const key of order) await assertAnswersTool(sides[key], ready.todoId);
    return compareMcp(target.backend, label, rounds);
  } finally {
    await server.stop();
  }
}

function parseArgs(argv: readonly string[]): { options: BenchOptions; useApiKey: boolean } | null {
  const rest = argv.filter((arg) => arg !== '--api-key' && arg !== '--');
  let options: BenchOptions | null;
  try {
    options = parseBenchArgs(rest);
  } catch (error) {
    // parseBenchArgs appends bench:rest's usage; show ours.
    throw new Error(`${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n\n${USAGE}`);
  }
  if (!options) return null;
  return { options, useApiKey: argv.includes('--api-key') };
}

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2));
  if (!parsed) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { options, useApiKey } = parsed;
  const results: McpTargetResult[] = [
    await benchTarget('PGlite (in memory)', { backend: 'pglite' }, options, useApiKey),
  ];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const schema = await createBenchSchema(databaseUrl);
    schemas.add(schema);
    try {
      results.push(
        await benchTarget(
          `PostgreSQL (schema ${schema.name})`,
          { backend: 'postgres', connectionString: databaseUrl, schema: schema.name },
          options,
          useApiKey,
        ),
      );
    } finally {
      await schema.drop();
      schemas.delete(schema);
    }
  } else progress('DATABASE_URL is not set: PostgreSQL is skipped.');
  const report: McpBenchReport = buildMcpReport(options, useApiKey ? 'API key' : 'delegated token', results);
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `\n${formatMcpReport(report)}\n`);
}

main().catch(async (error: unknown) => {
  process.exitCode = 1;
  progress(`bench:mcp failed: ${error instanceof Error ? error.message : String(error)}`);
  await releaseAll();
});
