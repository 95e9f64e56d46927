import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { BackendEnvironmentSchema } from '../environment.schema.js';

/** The backend package's directory: `npm start` runs `tsx src/main.ts` from here (its tsconfig enables decorators). */
const BACKEND_DIR = path.resolve(import.meta.dirname, '../..');
/** PGlite's first start in a fresh directory (initdb, WASM compile, migrations) takes seconds on a small machine. */
const DEFAULT_START_TIMEOUT_MS = 180_000;
/** Every variable the backend reads: none leaks from the test process (shared stores, credentials, log level). */
const WITHHELD = new Set(Object.keys(BackendEnvironmentSchema.shape));

/** A port that was free a moment ago on 127.0.0.1 (for a process that must be told its port before it listens). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One JSON log line of the backend. */
export type BackendLogLine = Record<string, unknown> & { msg?: string; level?: number };

/** How a backend process ended. */
export interface BackendExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** A `src/main.ts` child process started by {@link spawnBackendProcess}. */
export interface SpawnedBackend {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the URL of the "listening" log line; rejects if the process exits first or times out. */
  readonly listening: Promise<string>;
  /** Resolves when the process has exited, with what it wrote to stderr. */
  readonly exited: Promise<BackendExit>;
  /** Every JSON line it logged so far. */
  readonly logLines: BackendLogLine[];
}

/** A started backend, as {@link startBackendProcess} resolves it. */
export interface BackendProcess {
  /** Where it listens (`url` of its start-up line). */
  url: string;
  /** The public URL it announced at start. */
  publicUrl: string;
  /** Every JSON line it logged so far. */
  logLines: BackendLogLine[];
  /** Sends SIGTERM and waits for the process to exit. */
  stop(): Promise<void>;
}

// Whatever way the test process ends, no backend child outlives it.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts the real backend entry (`tsx src/main.ts`) in a child process, configured by `env` alone: none of the
 * variables the backend reads is inherited from the test process. Wait on `listening` (the log line, never a
 * sleep) or on `exited`.
 *
 * @example
 * const backend = spawnBackendProcess({ WILDO_DATA_DIR: dataDir, PORT: '0' });
 * const url = await backend.listening;
 */
export function spawnBackendProcess(env: Record<string, string>, timeoutMs = DEFAULT_START_TIMEOUT_MS): SpawnedBackend {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !WITHHELD.has(name)));
  // One process (tsx as a loader, not its CLI, which would run the backend in a grandchild): signals and pids are the backend's.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: BACKEND_DIR,
    env: { ...inherited, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<BackendExit>((resolve) => {
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stderr });
    });
  });
  const logLines: BackendLogLine[] = [];
  const listening = waitForListening(child, logLines, exited, timeoutMs).then((line) => String(line.url));
  // A caller waiting only on `exited` must not see an unhandled rejection from `listening`.
  listening.catch(() => undefined);
  return { child, pid: child.pid as number, listening, exited, logLines };
}

/**
 * Starts the backend process with `env` and resolves once it listens; rejects with its output when it exits
 * first or does not get there within `timeoutMs` (the process is stopped then).
 */
export async function startBackendProcess(
  env: Record<string, string>,
  timeoutMs = DEFAULT_START_TIMEOUT_MS,
): Promise<BackendProcess> {
  const spawned = spawnBackendProcess(env, timeoutMs);
  const stop = async () => {
    await stopBackendProcess(spawned);
  };
  try {
    await spawned.listening;
    const started = spawned.logLines.find((line) => line.msg === 'wildo backend listening') ?? {};
    return { url: String(started.url), publicUrl: String(started.publicUrl), logLines: spawned.logLines, stop };
  } catch (error) {
    const { stderr } = await stopBackendProcess(spawned);
    throw new Error(
      `${(error as Error).message}\nstderr:\n${stderr}\nlog:\n${spawned.logLines.map((l) => JSON.stringify(l)).join('\n')}`,
    );
  }
}

/** Stops a backend as an operator would (SIGTERM, or the signal given) and waits for it to exit. */
export async function stopBackendProcess(
  backend: SpawnedBackend,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<BackendExit> {
  if (backend.child.exitCode === null && backend.child.signalCode === null) backend.child.kill(signal);
  return backend.exited;
}

function waitForListening(
  child: ChildProcess,
  logLines: BackendLogLine[],
  exited: Promise<BackendExit>,
  timeoutMs: number,
): Promise<BackendLogLine> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the backend did not log "wildo backend listening" within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: BackendLogLine;
      try {
        line = JSON.parse(text) as BackendLogLine;
      } catch {
        line = { msg: text };
      }
      logLines.push(line);
      if (line.msg === 'wildo backend listening' && typeof line.url === 'string') {
        clearTimeout(timer);
        resolve(line);
      }
    });
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`the backend exited before listening (${exit.signal ?? `code ${exit.code}`}): ${exit.stderr}`));
    });
  });
}
