import type { BenchOptions } from './bench-args.js';
import { runLoad, type LoadRequest, type LoadSettings } from './bench-load.js';
import type { RoundResult } from './bench-report.js';
import type { BenchServerProcess } from './bench-server-process.js';

/** One round against one side, with the server child's CPU time spent meanwhile. */
export async function measureRound(
  server: Pick<BenchServerProcess, 'cpuMicros'>,
  side: LoadRequest,
  settings: LoadSettings,
): Promise<RoundResult> {
  const before = await server.cpuMicros();
  const load = await runLoad(side, settings);
  const after = await server.cpuMicros();
  return { ...load, serverCpuMicrosPerRequest: (after - before) / load.requests };
}

/**
 * Warms both sides up, then measures them alternately: a drift of the machine (heat, neighbours, GC of this runner)
 * hits both sides alike. Each round's throughput and the server's CPU per request go to `progress` as they come.
 */
export async function measureAlternately(
  label: string,
  server: Pick<BenchServerProcess, 'cpuMicros'>,
  framework: LoadRequest,
  bare: LoadRequest,
  options: BenchOptions,
  progress: (message: string) => void,
): Promise<{ framework: RoundResult[]; bare: RoundResult[] }> {
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
