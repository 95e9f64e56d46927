import os from 'node:os';
import type { BenchOptions } from './bench-args.js';
import type { LoadResult } from './bench-load.js';

/** The share of the bare handler's throughput the framework must keep (issue target). */
export const TARGET_RATIO = 0.8;

/** One measured round against one server. */
export interface RoundResult extends LoadResult {
  /**
   * CPU time of the server process per completed request (user + system). Unlike requests/s it barely
   * moves when other processes compete for the cores. It counts PGlite (in-process), not a PostgreSQL server.
   */
  serverCpuMicrosPerRequest: number;
}

/** One server's rounds and their means. */
export interface SideSummary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuMicrosPerRequest: number;
  rounds: RoundResult[];
}

/** The comparison on one database. */
export interface TargetResult {
  backend: 'pglite' | 'postgres';
  label: string;
  framework: SideSummary;
  bare: SideSummary;
  /** Mean framework requests/s over mean bare requests/s. */
  ratio: number;
  /** The ratio of each round (framework round i over bare round i): their spread shows the noise. */
  roundRatios: number[];
  /**
   * Bare CPU per request over framework CPU per request: the throughput ratio a CPU-bound server process
   * would show on a core of its own, a cross-check of `ratio` on a busy machine.
   */
  cpuRatio: number;
  meetsTarget: boolean;
}

/** Everything one run measured, as `--json` prints it. */
export interface BenchReport {
  benchmark: 'rest-get-one-todo';
  targetRatio: number;
  settings: { durationSeconds: number; connections: number; pipelining: 1; rounds: number; warmupSeconds: number };
  machine: { node: string; cpus: number; cpuModel: string };
  results: TargetResult[];
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Means over the rounds of one server. */
export function summarize(rounds: RoundResult[]): SideSummary {
  return {
    requestsPerSecond: mean(rounds.map((round) => round.requestsPerSecond)),
    p50Ms: mean(rounds.map((round) => round.p50Ms)),
    p99Ms: mean(rounds.map((round) => round.p99Ms)),
    serverCpuMicrosPerRequest: mean(rounds.map((round) => round.serverCpuMicrosPerRequest)),
    rounds,
  };
}

/** Compares the framework's rounds with the bare handler's on one database. */
export function compare(
  backend: TargetResult['backend'],
  label: string,
  framework: RoundResult[],
  bare: RoundResult[],
): TargetResult {
  const frameworkSummary = summarize(framework);
  const bareSummary = summarize(bare);
  const ratio = frameworkSummary.requestsPerSecond / bareSummary.requestsPerSecond;
  return {
    backend,
    label,
    framework: frameworkSummary,
    bare: bareSummary,
    ratio,
    roundRatios: framework.map((round, i) => round.requestsPerSecond / (bare[i]?.requestsPerSecond ?? Number.NaN)),
    cpuRatio: bareSummary.serverCpuMicrosPerRequest / frameworkSummary.serverCpuMicrosPerRequest,
    meetsTarget: ratio >= TARGET_RATIO,
  };
}

/** Assembles the report of a run. */
export function buildReport(options: BenchOptions, results: TargetResult[]): BenchReport {
  return {
    benchmark: 'rest-get-one-todo',
    targetRatio: TARGET_RATIO,
    settings: {
      durationSeconds: options.durationSeconds,
      connections: options.connections,
      pipelining: 1,
      rounds: options.rounds,
      warmupSeconds: options.warmupSeconds,
    },
    machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown' },
    results,
  };
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const millis = (value: number) => value.toFixed(2);

/** How a report names what it measured and its two sides. */
export interface ResultLabels {
  /** `GET one todo` */
  subject: string;
  framework: string;
  bare: string;
}

const REST_LABELS: ResultLabels = {
  subject: 'GET one todo',
  framework: 'framework (full pipeline)',
  bare: 'bare Express handler',
};

/** The table of one database: requests/s and latency of each side, the ratio and the verdict. */
export function formatResult(
  result: TargetResult,
  settings: BenchReport['settings'],
  labels: ResultLabels = REST_LABELS,
): string {
  const rows: [string, SideSummary][] = [
    [labels.framework, result.framework],
    [labels.bare, result.bare],
  ];
  const name = (text: string) => text.padEnd(27);
  const cell = (text: string) => text.padStart(12);
  const lines = [
    `${labels.subject} on ${result.label}: ${settings.connections} connections, ${settings.rounds} × ${settings.durationSeconds} s rounds per side, means over rounds`,
    `${name('')}${cell('req/s')}${cell('p50 ms')}${cell('p99 ms')}${cell('CPU µs/req')}`,
    ...rows.map(
      ([label, side]) =>
        `${name(label)}${cell(integer(side.requestsPerSecond))}${cell(millis(side.p50Ms))}${cell(millis(side.p99Ms))}${cell(integer(side.serverCpuMicrosPerRequest))}`,
    ),
    `${name('framework / bare')}${cell(percent(result.ratio))}   (rounds: ${result.roundRatios.map(percent).join(', ')})`,
    `${name('bare / framework CPU')}${cell(percent(result.cpuRatio))}   (server process CPU per request; ${result.backend === 'postgres' ? 'PostgreSQL server not counted' : 'PGlite included'})`,
    `${result.meetsTarget ? 'PASS ' : 'BELOW'} target: the framework keeps ${percent(result.ratio)} of the ${labels.bare}'s throughput (target ${percent(TARGET_RATIO)})`,
  ];
  return lines.join('\n');
}

/** The whole report as text. */
export function formatReport(report: BenchReport): string {
  const header = `bench:rest — Node ${report.machine.node}, ${report.machine.cpus} CPUs (${report.machine.cpuModel})`;
  return [header, ...report.results.map((result) => formatResult(result, report.settings))].join('\n\n');
}
