import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseBenchArgs, USAGE } from './bench-args.js';
import { runLoad, type LoadRequest } from './bench-load.js';
import { toolCall, type McpBenchServerReady } from './mcp-bench-protocol.js';
import type { BenchServerReady } from './bench-protocol.js';
import type { RoundResult } from './bench-report.js';
import { measureRound } from './bench-rounds.js';
import { benchRunResources, startBenchServer, type BenchServerProcess } from './bench-server-process.js';

/**
 * `pnpm bench:otel`: the REST read (`GET` one todo) and the MCP `tools/call todos__read` through the framework with
 * OpenTelemetry export on (every span batched and sent over OTLP/HTTP protobuf to a local receiver) against the
 * same framework with it off, two server children side by side in one run, measured in alternation on PGlite.
 * Prints throughput, p99 and server CPU per request of both, and the on/off throughput ratio (target at least 90%).
 */

const progress = (message: string) => process.stderr.write(`${message}\n`);
const { release: releaseAll } = benchRunResources(progress);
const MCP_SCRIPT = new URL('./mcp-bench-server.ts', import.meta.url).pathname;
const TARGET_RATIO = 0.9;

/** An OTLP/HTTP receiver that accepts and drops every export (the cost measured is the backend's, not a collector's). */
async function startSink(): Promise<{ url: string; exports: () => number; close(): void }> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => count,
    close: () => server.close(),
  };
}

interface Side {
  label: 'off' | 'on';
  server: BenchServerProcess<{ type: 'ready' }>;
  request: LoadRequest;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

async function measure(surface: string, sides: Side[], options: NonNullable<ReturnType<typeof parseBenchArgs>>) {
  progress(`${surface}: warming up (${options.warmupSeconds} s each)…`);
  for (const side of sides)
    await runLoad(side.request, { connections: options.connections, durationSeconds: options.warmupSeconds });
  const rounds = new Map<string, RoundResult[]>(sides.map((side) => [side.label, []]));
  for (let round = 1; round <= options.rounds; round++) {
    const order = round % 2 === 1 ? sides : [...sides].reverse();
    for (const side of order) {
      const result = await measureRound(side.server, side.request, {
        connections: options.connections,
        durationSeconds: options.durationSeconds,
      });
      rounds.get(side.label)?.push(result);
      progress(`${surface}: round ${round} tracing ${side.label}: ${Math.round(result.requestsPerSecond)} req/s`);
    }
  }
  const summary = (label: string) => {
    const results = rounds.get(label) ?? [];
    return {
      requestsPerSecond: mean(results.map((r) => r.requestsPerSecond)),
      p99Ms: mean(results.map((r) => r.p99Ms)),
      cpuMicrosPerRequest: mean(results.map((r) => r.serverCpuMicrosPerRequest)),
    };
  };
  const off = summary('off');
  const on = summary('on');
  return { surface, off, on, ratio: on.requestsPerSecond / off.requestsPerSecond };
}

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  if (!options) return void process.stdout.write(`${USAGE.replace('bench:rest', 'bench:otel')}\n`);
  const sink = await startSink();
  const results = [];
  try {
    for (const surface of ['REST', 'MCP'] as const) {
      const script = surface === 'MCP' ? { script: MCP_SCRIPT } : {};
      progress(`${surface}: starting two server children (tracing off, tracing on)…`);
      const off = await startBenchServer<BenchServerReady | McpBenchServerReady>({ backend: 'pglite' }, script);
      const on = await startBenchServer<BenchServerReady | McpBenchServerReady>(
        { backend: 'pglite' },
        {
          ...script,
          env: { BENCH_OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
        },
      );
      try {
        const requestOf = (ready: BenchServerReady | McpBenchServerReady): LoadRequest =>
          surface === 'MCP'
            ? toolCall(
                'ours',
                ready.frameworkUrl,
                ready as McpBenchServerReady,
                (ready as McpBenchServerReady).credentials.token,
              )
            : {
                label: ready.frameworkUrl,
                url: `${ready.frameworkUrl}${(ready as BenchServerReady).todoPath}`,
                headers: { authorization: `Bearer ${(ready as BenchServerReady).token}`, accept: 'application/json' },
              };
        results.push(
          await measure(
            surface,
            [
              { label: 'off', server: off, request: requestOf(off.ready) },
              { label: 'on', server: on, request: requestOf(on.ready) },
            ],
            options,
          ),
        );
      } finally {
        await off.stop();
        await on.stop();
      }
    }
  } finally {
    sink.close();
  }
  if (sink.exports() === 0) throw new Error('The traced children exported nothing: tracing was not on.');
  const rows = results.map(
    (r) =>
      `${r.surface.padEnd(5)} off ${Math.round(r.off.requestsPerSecond)} req/s (p99 ${r.off.p99Ms.toFixed(1)} ms, ${Math.round(r.off.cpuMicrosPerRequest)} µs CPU/req)  ` +
      `on ${Math.round(r.on.requestsPerSecond)} req/s (p99 ${r.on.p99Ms.toFixed(1)} ms, ${Math.round(r.on.cpuMicrosPerRequest)} µs CPU/req)  ` +
      `ratio ${(r.ratio * 100).toFixed(1)}% ${r.ratio >= TARGET_RATIO ? 'meets' : 'misses'} the ${TARGET_RATIO * 100}% target`,
  );
  process.stdout.write(
    options.json
      ? `${JSON.stringify({ results, otlpExports: sink.exports() }, null, 2)}\n`
      : `\nOpenTelemetry on vs off (PGlite, ${options.connections} connections, ${options.rounds} rounds of ${options.durationSeconds} s; ${sink.exports()} OTLP exports received)\n${rows.join('\n')}\n`,
  );
}

main().catch(async (error: unknown) => {
  process.exitCode = 1;
  progress(`bench:otel failed: ${error instanceof Error ? error.message : String(error)}`);
  await releaseAll();
});
