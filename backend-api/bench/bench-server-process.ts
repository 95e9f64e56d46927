import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  isBenchServerMessage,
  type BenchRunnerMessage,
  type BenchServerMessage,
  type BenchServerReady,
  type BenchTarget,
} from './bench-protocol.js';
import type { BenchSchema } from './bench-postgres-schema.js';

/** A running server child (see `bench-server.ts`); `TReady` is what its script reports once it listens. */
export interface BenchServerProcess<TReady extends { type: 'ready' } = BenchServerReady> {
  readonly ready: TReady;
  /** The child's CPU time so far (user + system, microseconds): its work, whatever else the machine runs. */
  cpuMicros(): Promise<number>;
  /** Starts sampling the child's CPU; {@link stopProfile} writes what was sampled since. */
  startProfile(): void;
  /** Stops sampling and has the child write the `.cpuprofile` to `path`. */
  stopProfile(path: string): Promise<void>;
  /** Asks the child to release everything and exit; kills it if it has not within a few seconds. */
  stop(): Promise<void>;
}

/** Options of {@link startBenchServer}. */
export interface BenchServerOptions {
  /** Write a V8 CPU profile of the server child into this directory (on its exit). */
  cpuProfDir?: string;
  /** The child's script (default `bench-server.ts`); it speaks the protocol of `bench-protocol.ts`. */
  script?: string;
  /** A further JSON argument for the child's script (after the target). */
  scriptOptions?: object;
  /** Variables laid over this process's environment for the child. */
  env?: Record<string, string>;
}

const SERVER_SCRIPT = fileURLToPath(new URL('./bench-server.ts', import.meta.url));
/** PGlite's first start (WASM compile, migrations) takes seconds on a small machine, minutes on a busy one. */
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 10_000;

// Last resort: whatever way this process ends, no server child outlives it.
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (!exited(child)) {
    if (child.connected) child.send({ type: 'stop' } satisfies BenchRunnerMessage);
    else child.kill('SIGTERM');
    if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
      child.kill('SIGKILL');
      await waitForExit(child, STOP_TIMEOUT_MS);
    }
  }
  children.delete(child);
}

function awaitReady<TReady>(child: ChildProcess): Promise<TReady> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => settle(new Error(`The bench server did not get ready within ${START_TIMEOUT_MS / 1000} s.`)),
      START_TIMEOUT_MS,
    );
    const onMessage = (message: unknown) => {
      if (!isBenchServerMessage(message)) return;
      if (message.type === 'ready') settle(message);
      else if (message.type === 'failed') settle(new Error(`The bench server failed to start:\n${message.message}`));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(new Error(`The bench server exited before it was ready (${signal ?? `code ${code}`}).`));
    function settle(outcome: BenchServerReady | Error): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome as TReady);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Sends `message` and waits for the child's answer of type `answer`; requests are sequential, so the next such answer is ours. */
function ask<TAnswer extends BenchServerMessage['type']>(
  child: ChildProcess,
  message: BenchRunnerMessage,
  answer: TAnswer,
): Promise<Extract<BenchServerMessage, { type: TAnswer }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: unknown) => {
      if (!isBenchServerMessage(reply) || reply.type !== answer) return;
      settle();
      resolve(reply as Extract<BenchServerMessage, { type: TAnswer }>);
    };
    const onExit = () => {
      settle();
      reject(new Error('The bench server exited during the measurement.'));
    };
    function settle(): void {
      child.off('message', onMessage);
      child.off('exit', onExit);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.send(message);
  });
}

/**
 * Starts a server child for `target` and waits until it listens and has seeded its todo. The child runs
 * under this process's loader flags (tsx), with its stdout sent to our stderr so stdout stays the report.
 */
export async function startBenchServer<TReady extends { type: 'ready' } = BenchServerReady>(
  target: BenchTarget,
  options: BenchServerOptions = {},
): Promise<BenchServerProcess<TReady>> {
  const profile = options.cpuProfDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`];
  const args = [JSON.stringify(target), ...(options.scriptOptions ? [JSON.stringify(options.scriptOptions)] : [])];
  const child = fork(options.script ?? SERVER_SCRIPT, args, {
    execArgv: [...process.execArgv, ...profile],
    stdio: ['ignore', 2, 'inherit', 'ipc'],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  children.add(child);
  try {
    const ready = await awaitReady<TReady>(child);
    return {
      ready,
      cpuMicros: async () => {
        const usage = await ask(child, { type: 'cpu-usage' }, 'cpu-usage');
        return usage.user + usage.system;
      },
      startProfile: () => child.send({ type: 'profile-start' } satisfies BenchRunnerMessage),
      stopProfile: async (path) => {
        await ask(child, { type: 'profile-stop', path }, 'profile-written');
      },
      stop: () => stopChild(child),
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Stops every server child still running (interrupt handling). */
export async function stopAllBenchServers(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child)));
}

/**
 * What a bench run holds outside its own process: the server children and the PostgreSQL schemas it created.
 * `release()` stops the children first (dropping a schema under open connections would wait on their locks),
 * then drops the schemas. On SIGINT/SIGTERM everything is released before exiting; a second interrupt does not
 * wait for a hung cleanup (the exit hook still kills the children).
 */
export function benchRunResources(progress: (message: string) => void): {
  schemas: Set<BenchSchema>;
  release: () => Promise<void>;
} {
  const schemas = new Set<BenchSchema>();
  const release = async () => {
    await stopAllBenchServers();
    await Promise.allSettled([...schemas].map((schema) => schema.drop()));
  };
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      progress(`\n${signal}: stopping the bench servers…`);
      void release().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
  return { schemas, release };
}
