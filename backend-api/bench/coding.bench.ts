import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import {
  AgentClientProtocol_AuthMode,
  AgentClientProtocol_HostConfigurationInheritance,
  AgentClientProtocol_PermissionCeiling,
  AgentClientProtocol_RunnerHost,
  AgentClientProtocol_WorkingDirectoryPolicy,
  APPLICATION_ENVIRONMENT,
  type AgentClientProtocolExecutionProfile,
} from '@wildo/shared-lib';
import { systemClock } from '../src/engine/container/clock.js';
import { CodingRun } from '../src/engine/agents/coding/coding-run.js';
import { CodingRunEvents } from '../src/engine/agents/coding/coding-run.events.js';
import { createSilentLogger } from '../src/engine/logging/index.js';
import { ACP_STUB_AGENT_PATH, acpStubScript, type AcpStubStep } from '../src/testing/coding-stubs/index.js';
import { formatMs, quantile } from './turn-bench.js';

/**
 * `pnpm bench:coding`: the coding-agent runner's own overhead per turn, spawn excluded. The same stub ACP agent
 * plays the same turn (read a file, write it, ask one permission, stream five messages) through two clients: the
 * bare SDK client (handlers that read, write and allow without any check) and the framework's runner (the
 * ceiling, the location guard on every call, progress events, the run record). Each side runs its turns in one
 * session of one subprocess; per-turn wall times are taken between consecutive turn ends, and the client
 * process's CPU per turn (the stub's own work is in its process, so it is excluded) is the figure that load from
 * other processes moves least. A benchmark, not a test: it prints medians and asserts no time.
 */

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const WARMUP_TURNS = Number(process.env.BENCH_WARMUP ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

function turnSteps(file: string): AcpStubStep[] {
  return [
    { read: file },
    { write: file, content: 'export const value = 1;\n' },
    { permission: { kind: 'edit', title: 'edit value', locations: [file] } },
    ...Array.from({ length: 5 }, (_, i) => ({ say: `step ${i} ` })),
    { stop: 'max_turn_requests' },
  ];
}

const PROFILE: AgentClientProtocolExecutionProfile = {
  runnerHost: AgentClientProtocol_RunnerHost.BACKEND_SUBPROCESS,
  authMode: AgentClientProtocol_AuthMode.HOST_MANAGED,
  allowedApplicationEnvironments: [APPLICATION_ENVIRONMENT.DEVELOPMENT],
  workingDirectoryPolicy: AgentClientProtocol_WorkingDirectoryPolicy.WORKSPACE_ROOT,
  permissionCeiling: AgentClientProtocol_PermissionCeiling.WORKSPACE_WRITE,
  hostConfigurationInheritance: AgentClientProtocol_HostConfigurationInheritance.APPLICATION_SCOPED,
  turnTimeoutMs: 60_000,
  // Every turn stops for length, so the runner continues it: one run plays all the turns in one session.
  maxAutoContinuations: TURNS - 1,
  awaitingInputTtlMs: 60_000,
};

const stubEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ACP_STUB_CAPABILITIES: 'none' });

/** What one side measured: wall time per turn (from one turn's end to the next) and client CPU per turn. */
interface SideTurns {
  times: number[];
  cpuMicrosPerTurn: number;
}

const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

/** Per-turn times through the framework's runner; CPU is counted over the turns after the warm-up ones. */
async function runnerTurns(root: string, file: string): Promise<SideTurns> {
  const ends: number[] = [];
  let cpuStart = 0;
  let cpuEnd = 0;
  const events = new CodingRunEvents('bench', systemClock, createSilentLogger(), (event) => {
    if (event.type !== 'session' && event.type !== 'turn_end') return;
    ends.push(performance.now());
    if (event.type === 'turn_end' && event.turn === WARMUP_TURNS) cpuStart = cpuMicros();
    if (event.type === 'turn_end' && event.turn === TURNS) cpuEnd = cpuMicros();
  });
  const outcome = await new CodingRun({
    launch: { command: process.execPath, args: [ACP_STUB_AGENT_PATH], cwd: root, env: stubEnv() },
    profile: PROFILE,
    workspace: { root, isPermitted: (location) => location.startsWith(path.join(root, 'src') + path.sep) },
    prompt: acpStubScript(turnSteps(file)),
    events,
    timing: { stopGraceMs: 2_000, cancelGraceMs: 2_000 },
  }).execute();
  if (outcome.turns !== TURNS) throw new Error(`the runner played ${outcome.turns} turns, expected ${TURNS}`);
  const times = ends.slice(1).map((end, i) => end - (ends[i] as number));
  return { times: times.slice(WARMUP_TURNS), cpuMicrosPerTurn: (cpuEnd - cpuStart) / (TURNS - WARMUP_TURNS) };
}

/** Per-turn times through the bare SDK client (no checks, no events, no record). */
async function bareTurns(root: string, file: string): Promise<SideTurns> {
  const child = spawn(process.execPath, [ACP_STUB_AGENT_PATH], {
    cwd: root,
    env: stubEnv(),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const app = acp
    .client({ name: 'bare' })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => ({
      content: await readFile(params.path, 'utf8'),
    }))
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      await writeFile(params.path, params.content);
      return {};
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const once = params.options.find((option) => option.kind === 'allow_once');
      return { outcome: once ? { outcome: 'selected', optionId: once.optionId } : { outcome: 'cancelled' } };
    })
    .onNotification(acp.methods.client.session.update, () => undefined);
  try {
    return await app.connectWith(stream, async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
      });
      const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: root, mcpServers: [] });
      const times: number[] = [];
      let cpuStart = 0;
      for (let turn = 1; turn <= TURNS; turn++) {
        const text = turn === 1 ? acpStubScript(turnSteps(file)) : 'Continue with the task from where you stopped.';
        const start = performance.now();
        await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
        times.push(performance.now() - start);
        if (turn === WARMUP_TURNS) cpuStart = cpuMicros();
      }
      return { times: times.slice(WARMUP_TURNS), cpuMicrosPerTurn: (cpuMicros() - cpuStart) / (TURNS - WARMUP_TURNS) };
    });
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (values: number[]) => quantile(values, 0.5);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function main(): Promise<void> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'wildo-bench-coding-'));
  const root = path.join(base, 'workspace');
  const file = path.join(root, 'src', 'value.ts');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'export const value = 0;\n');
  const sides = { bare: [] as SideTurns[], runner: [] as SideTurns[] };
  try {
    // The sides alternate, so a burst of load from elsewhere on the machine falls on both.
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`round ${round}/${ROUNDS}: ${TURNS} turns each side\n`);
      sides.bare.push(await bareTurns(root, file));
      sides.runner.push(await runnerTurns(root, file));
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  const summary = (label: string, rounds: SideTurns[]) => {
    const times = rounds.flatMap((round) => round.times);
    return { label, p50: median(times), p95: quantile(times, 0.95), cpu: mean(rounds.map((r) => r.cpuMicrosPerTurn)) };
  };
  const bare = summary('bare SDK client', sides.bare);
  const runner = summary('framework runner', sides.runner);
  const turns = sides.bare.reduce((sum, round) => sum + round.times.length, 0);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    `\nCoding-agent turn against the stub ACP agent (1 read, 1 write, 1 permission, 5 messages), ${turns} turns per side`,
  );
  out(`${'client'.padEnd(18)} ${'median'.padStart(9)} ${'p95'.padStart(9)} ${'client CPU/turn'.padStart(16)}`);
  for (const side of [bare, runner]) {
    out(
      `${side.label.padEnd(18)} ${formatMs(side.p50).padStart(9)} ${formatMs(side.p95).padStart(9)} ${`${(side.cpu / 1000).toFixed(2)} ms`.padStart(16)}`,
    );
  }
  out(
    `\nrunner overhead per turn: ${formatMs(runner.p50 - bare.p50)} wall (ratio ${(runner.p50 / bare.p50).toFixed(2)}), ` +
      `${((runner.cpu - bare.cpu) / 1000).toFixed(2)} ms client CPU (ratio ${(runner.cpu / bare.cpu).toFixed(2)})`,
  );
}

await main();
