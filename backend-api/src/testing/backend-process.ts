import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The backend's process entry and the package directory it runs from (its tsconfig enables decorators). */
const MAIN = path.resolve(import.meta.dirname, '../main.ts');
const PACKAGE_DIR = path.resolve(import.meta.dirname, '../..');
/** PGlite's first start in a fresh directory (initdb, WASM compile, migrations) takes seconds on a small machine. */
const START_TIMEOUT_MS = 150_000;

/** How a backend process ended. */
export interface BackendExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** A `src/main.ts` child process started by {@link spawnBackendProcess}. */
export interface BackendProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the URL from the "listening" log line; rejects if the process exits first. */
  readonly listening: Promise<string>;
  /** Resolves when the process has exited, with what it wrote to stderr. */
  readonly exited: Promise<BackendExit>;
}

// Whatever way the test process ends, no backend child outlives it.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The environment of a child backend: embedded defaults only, whatever the test run's environment says. */
function backendEnv(dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, WILDO_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...extra };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'WILDO_PRIMARY_SECRET']) if (!(name in extra)) delete env[name];
  return env;
}

function awaitListening(child: ChildProcess, exited: Promise<BackendExit>): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the backend did not listen within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      let entry: { msg?: unknown; url?: unknown };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.msg === 'wildo backend listening' && typeof entry.url === 'string') {
        clearTimeout(timer);
        resolve(entry.url);
      }
    });
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`the backend exited before listening (${exit.signal ?? `code ${exit.code}`}): ${exit.stderr}`));
    });
  });
}

/**
 * Starts the real backend entry (`src/main.ts` through tsx) on `dataDir` with `PORT=0`, as `npm start` would,
 * in a child process. Wait on `listening` (the log line, never a sleep) or on `exited`.
 *
 * @example
 * const backend = spawnBackendProcess(dataDir);
 * const url = await backend.listening;
 */
export function spawnBackendProcess(dataDir: string, extraEnv: Record<string, string> = {}): BackendProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: PACKAGE_DIR,
    env: backendEnv(dataDir, extraEnv),
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
  const listening = awaitListening(child, exited);
  // A caller waiting only on `exited` must not see an unhandled rejection from `listening`.
  listening.catch(() => undefined);
  return { child, pid: child.pid as number, listening, exited };
}

/** Stops a backend as an operator would (SIGTERM) and waits for it to exit. */
export async function stopBackendProcess(backend: BackendProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<BackendExit> {
  if (backend.child.exitCode === null && backend.child.signalCode === null) backend.child.kill(signal);
  return backend.exited;
}
