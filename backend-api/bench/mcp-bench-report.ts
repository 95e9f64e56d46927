import os from 'node:os';
import type { BenchOptions } from './bench-args.js';
import type { RoundResult } from './bench-report.js';
import { MCP_BENCH_REVISION, MCP_BENCH_TOOL } from './mcp-bench-protocol.js';

/** The share of the bare SDK server's throughput ours must keep (issue target). */
export const MCP_TARGET_RATIO = 0.8;

/** The share of the plain Express JSON handler's throughput ours must keep (issue target). */
export const MCP_JSON_TARGET_RATIO = 0.7;

/** One server's rounds and their medians. */
export interface McpSideSummary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuMicrosPerRequest: number;
  rounds: RoundResult[];
}

/** Ours against one anchor on one database. */
export interface McpComparison {
  /** Median requests/s of ours over the anchor's. */
  ratio: number;
  /** Each round's ratio (ours round i over the anchor's round i): their spread shows the noise. */
  roundRatios: number[];
  /** The anchor's CPU per request over ours (median per side): the ratio a CPU-bound server would show on a core of its own. */
  cpuRatio: number;
  targetRatio: number;
  meetsTarget: boolean;
}

/** The comparison on one database. */
export interface McpTargetResult {
  backend: 'pglite' | 'postgres';
  label: string;
  ours: McpSideSummary;
  bareSdk: McpSideSummary;
  bareJson: McpSideSummary;
  /** Ours against the bare SDK server (target {@link MCP_TARGET_RATIO}). */
  versusSdk: McpComparison;
  /** Ours against the plain Express JSON handler (target {@link MCP_JSON_TARGET_RATIO}). */
  versusJson: McpComparison;
}

/** Everything one run measured, as `--json` prints it. */
export interface McpBenchReport {
  benchmark: 'mcp-tools-call-read';
  tool: string;
  revision: string;
  credential: 'delegated token' | 'API key';
  targetRatios: { bareSdk: number; bareJson: number };
  settings: { durationSeconds: number; connections: number; pipelining: 1; rounds: number; warmupSeconds: number };
  machine: { node: string; cpus: number; cpuModel: string };
  results: McpTargetResult[];
}

/** The median (mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function summarizeByMedian(rounds: RoundResult[]): McpSideSummary {
  return {
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    serverCpuMicrosPerRequest: median(rounds.map((r) => r.serverCpuMicrosPerRequest)),
    rounds,
  };
}

function compareWith(ours: McpSideSummary, anchor: McpSideSummary, targetRatio: number): McpComparison {
  const ratio = ours.requestsPerSecond / anchor.requestsPerSecond;
  return {
    ratio,
    roundRatios: ours.rounds.map(
      (round, i) => round.requestsPerSecond / (anchor.rounds[i]?.requestsPerSecond ?? Number.NaN),
    ),
    cpuRatio: anchor.serverCpuMicrosPerRequest / ours.serverCpuMicrosPerRequest,
    targetRatio,
    meetsTarget: ratio >= targetRatio,
  };
}

/** Compares our rounds with both anchors' on one database. */
export function compareMcp(
  backend: McpTargetResult['backend'],
  label: string,
  rounds: { ours: RoundResult[]; bareSdk: RoundResult[]; bareJson: RoundResult[] },
): McpTargetResult {
  const ours = summarizeByMedian(rounds.ours);
  const bareSdk = summarizeByMedian(rounds.bareSdk);
  const bareJson = summarizeByMedian(rounds.bareJson);
  return {
    backend,
    label,
    ours,
    bareSdk,
    bareJson,
    versusSdk: compareWith(ours, bareSdk, MCP_TARGET_RATIO),
    versusJson: compareWith(ours, bareJson, MCP_JSON_TARGET_RATIO),
  };
}

/** Assembles the report of a run. */
export function buildMcpReport(
  options: BenchOptions,
  credential: McpBenchReport['credential'],
  results: McpTargetResult[],
): McpBenchReport {
  return {
    benchmark: 'mcp-tools-call-read',
    tool: MCP_BENCH_TOOL,
    revision: MCP_BENCH_REVISION,
    credential,
    targetRatios: { bareSdk: MCP_TARGET_RATIO, bareJson: MCP_JSON_TARGET_RATIO },
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

/** The table of one database. */
export function formatMcpResult(result: McpTargetResult, report: McpBenchReport): string {
  const { settings } = report;
  const name = (text: string) => text.padEnd(46);
  const cell = (text: string) => text.padStart(12);
  const rows: [string, McpSideSummary][] = [
    [`ours (/api/v1/mcp, ${report.credential})`, result.ours],
    ['bare SDK server (server 2.4.0 + node 2.1.2)', result.bareSdk],
    ['bare Express JSON handler', result.bareJson],
  ];
  const cpuNote = result.backend === 'postgres' ? 'PostgreSQL server not counted' : 'PGlite included';
  const comparison = (anchor: string, versus: McpComparison) => [
    `${name(`ours / ${anchor}`)}${cell(percent(versus.ratio))}   (rounds: ${versus.roundRatios.map(percent).join(', ')})`,
    `${name(`${anchor} / ours CPU`)}${cell(percent(versus.cpuRatio))}   (server process CPU per request; ${cpuNote})`,
    `${versus.meetsTarget ? 'PASS ' : 'BELOW'} target: ours keeps ${percent(versus.ratio)} of the ${anchor}'s throughput (target ${percent(versus.targetRatio)})`,
  ];
  return [
    `tools/call ${report.tool} at ${report.revision} (stateless) on ${result.label}: ${settings.connections} connections, ${settings.rounds} × ${settings.durationSeconds} s rounds per side, rotating; medians over rounds`,
    `${name('')}${cell('req/s')}${cell('p50 ms')}${cell('p99 ms')}${cell('CPU µs/req')}`,
    ...rows.map(
      ([label, side]) =>
        `${name(label)}${cell(integer(side.requestsPerSecond))}${cell(millis(side.p50Ms))}${cell(millis(side.p99Ms))}${cell(integer(side.serverCpuMicrosPerRequest))}`,
    ),
    ...comparison('bare SDK server', result.versusSdk),
    ...comparison('bare JSON handler', result.versusJson),
  ].join('\n');
}

/** The whole report as text. */
export function formatMcpReport(report: McpBenchReport): string {
  const header = `bench:mcp — Node ${report.machine.node}, ${report.machine.cpus} CPUs (${report.machine.cpuModel})`;
  return [header, ...report.results.map((result) => formatMcpResult(result, report))].join('\n\n');
}
