import os from 'node:os';
import { parseBenchArgs } from './bench-args.js';
import { BenchResponseError, type LoadRequest } from './bench-load.js';
import { compare, formatResult, TARGET_RATIO, type TargetResult } from './bench-report.js';
import { measureAlternately } from './bench-rounds.js';
import { benchRunResources, startBenchServer } from './bench-server-process.js';
import type { ConnectorsBenchReady } from './connectors-bench-server.js';

/**
 * `pnpm bench:connectors`: throughput of a REST-backed read through the full pipeline (a person's token, context,
 * authorization, policies, burst throttle, the input contract, the REST call through the outbound guard, the
 * JSONPath mapping, projection at every depth) against a direct call to the same synthetic backend, in one run,
 * alternating rounds; the per-round ratios show the noise. A benchmark, not a test: it asserts no time.
 */

/** A fast regional API: what "a backend a team already has" answers in at best. */
const DEFAULT_LATENCY_MS = 20;

const USAGE = `Usage: pnpm bench:connectors [--backend-latency <ms>] [--json] [--duration <s>] [--connections <n>] [--rounds <n>] [--warmup <s>] [--cpu-prof <dir>]

Measures POST .../hotels/details (the reference application's travel desk, bound to the synthetic agency's REST API)
against GET /v1/stays/ws-1001 on the agency itself; both run in one server process.

  --backend-latency <ms>  the agency answers after this long, as a remote API does (default ${DEFAULT_LATENCY_MS});
                     0 compares against an answer computed on the spot, which measures the framework's own cost
  --json             print the results as one JSON object on stdout (progress goes to stderr)
  --duration <s>     seconds per measured round (default 5)
  --connections <n>  concurrent keep-alive connections (default 10)
  --rounds <n>       measured rounds per side, alternating (default 3)
  --warmup <s>       seconds of unmeasured load per side first (default 8)
  --cpu-prof <dir>   write a V8 CPU profile of the server child into <dir>`;

const SERVER_SCRIPT = new URL('./connectors-bench-server.ts', import.meta.url).pathname;

/** Takes `--backend-latency <ms>` out of the arguments (the rest are the shared bench options). */
function takeLatency(argv: readonly string[]): { latencyMs: number; rest: string[] } {
  const at = argv.indexOf('--backend-latency');
  if (at < 0) return { latencyMs: DEFAULT_LATENCY_MS, rest: [...argv] };
  const latencyMs = Number(argv[at + 1]);
  if (!Number.isFinite(latencyMs) || latencyMs < 0)
    throw new Error(`--backend-latency must be a number of milliseconds, got "${argv[at + 1]}".\n\n${USAGE}`);
  return { latencyMs, rest: [...argv.slice(0, at), ...argv.slice(at + 2)] };
}
const progress = (message: string) => process.stderr.write(`${message}\n`);
const { release: releaseAll } = benchRunResources(progress);

/** One plain request per side before any load: both must answer 200 with the stay's name. */
async function assertAnswersStay(request: LoadRequest): Promise<void> {
  const response = await fetch(request.url, {
    method: request.method ?? 'GET',
    headers: request.headers,
    ...(request.body ? { body: request.body } : {}),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"Casa Alfama"'))
    throw new BenchResponseError(
      `${request.label} (${request.url}) answered ${response.status}: ${text.slice(0, 300)}`,
    );
}

async function main(): Promise<void> {
  const { latencyMs, rest } = takeLatency(process.argv.slice(2));
  const options = parseBenchArgs(rest);
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  progress('starting the server child (agency + reference application)…');
  const server = await startBenchServer<ConnectorsBenchReady>(
    { backend: 'pglite' },
    {
      script: SERVER_SCRIPT,
      scriptOptions: { latencyMs },
      ...(options.cpuProfDir === undefined ? {} : { cpuProfDir: options.cpuProfDir }),
    },
  );
  let result: TargetResult;
  try {
    const { frameworkUrl, bareUrl, stayId, token } = server.ready;
    const framework: LoadRequest = {
      label: 'framework',
      url: frameworkUrl,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ stayId }),
    };
    const direct: LoadRequest = { label: 'direct', url: bareUrl, headers: { accept: 'application/json' } };
    await assertAnswersStay(framework);
    await assertAnswersStay(direct);
    const rounds = await measureAlternately('connectors', server, framework, direct, options, progress);
    result = compare(
      'pglite',
      `the synthetic agency (REST, answering in ${latencyMs} ms)`,
      rounds.framework,
      rounds.bare,
    );
  } finally {
    await server.stop();
  }
  const settings = {
    durationSeconds: options.durationSeconds,
    connections: options.connections,
    pipelining: 1 as const,
    rounds: options.rounds,
    warmupSeconds: options.warmupSeconds,
  };
  const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown' };
  if (options.json) {
    const report = {
      benchmark: 'connectors-rest-read',
      backendLatencyMs: latencyMs,
      targetRatio: TARGET_RATIO,
      settings,
      machine,
      results: [result],
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const header = `bench:connectors — Node ${machine.node}, ${machine.cpus} CPUs (${machine.cpuModel}); the agency runs in the server process on both sides`;
  const labels = {
    subject: 'hotels.details bound to the agency',
    framework: 'framework (full pipeline)',
    bare: 'direct call to the agency',
  };
  const added = result.framework.serverCpuMicrosPerRequest - result.bare.serverCpuMicrosPerRequest;
  const cost = `the framework adds ${Math.round(added)} µs of server CPU per call (its HTTP server, the pipeline, the guarded client, mapping, projection)`;
  process.stdout.write(`\n${header}\n${formatResult(result, settings, labels)}\n${cost}\n`);
}

main().catch(async (error: unknown) => {
  process.exitCode = 1;
  progress(`bench:connectors failed: ${error instanceof Error ? error.message : String(error)}`);
  await releaseAll();
});
