import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { BackendEnvironmentSchema } from '../environment.schema.js';

/** The backend package's directory: `npm start` runs `tsx src/main.ts` from here. */
const BACKEND_DIR = path.resolve(import.meta.dirname, '../..');

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

/** The reference backend running as its own process (`tsx src/main.ts`), as an operator starts it. */
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

/**
 * Starts `tsx src/main.ts` with `env` on top of this process's environment (without the variables the backend
 * reads, so only `env` configures it) and resolves once it logged "wildo backend listening"; rejects with its
 * output when it exits first or does not get there within `timeoutMs`.
 */
export async function startBackendProcess(env: Record<string, string>, timeoutMs = 180_000): Promise<BackendProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !WITHHELD.has(name)));
  const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
  const child = spawn(process.execPath, [tsxCli, 'src/main.ts'], { cwd: BACKEND_DIR, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const logLines: BackendLogLine[] = [];
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const listening = await waitForListening(child, logLines, timeoutMs);
    return { url: String(listening.url), publicUrl: String(listening.publicUrl), logLines, stop };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\nstderr:\n${stderr.join('')}\nlog:\n${logLines.map((l) => JSON.stringify(l)).join('\n')}`);
  }
}

function waitForListening(child: ChildProcess, logLines: BackendLogLine[], timeoutMs: number): Promise<BackendLogLine> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the backend did not log "wildo backend listening" within ${timeoutMs} ms`)), timeoutMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`the backend exited (code ${code}) before listening`));
    };
    child.once('exit', onExit);
    createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: BackendLogLine;
      try {
        line = JSON.parse(text) as BackendLogLine;
      } catch {
        line = { msg: text };
      }
      logLines.push(line);
      if (line.msg === 'wildo backend listening') {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(line);
      }
    });
  });
}
