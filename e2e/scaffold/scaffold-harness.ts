import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { BackendEnvironmentSchema } from '@wildo/backend-api/server';

/** The repository's root. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** pnpm as the repository runs it (`npx -y pnpm@...`): the machines have npm and Node 20, nothing else. */
export const PNPM = ['npx', '-y', 'pnpm@12.4.2'] as const;
/** A Node 22 binary: the `node` package of e2e's devDependencies. */
export const NODE_22_BIN = path.join(REPO_ROOT, 'e2e/node_modules/node/bin');
/** The packages an application installs, packed in this order (each after what it depends on). */
export const PACKED_PACKAGES = ['shared-lib', 'create-wildo', 'frontend', 'backend-api'] as const;

/**
 * The test process's environment without any variable the backend reads (`DATABASE_URL`, `REDIS_URL`, `PORT`,
 * `WILDO_*`, provider keys, ...): a scaffolded application runs on its embedded defaults and never reaches the shared
 * PostgreSQL or Redis the suite's own tests use. `extra` is laid over it.
 */
export function applicationEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const withheld = new Set(Object.keys(BackendEnvironmentSchema.shape));
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !withheld.has(name))), ...extra };
}

/** What one command printed and how it ended. */
export interface CommandRun {
  command: string;
  code: number | null;
  output: string;
  seconds: number;
}

/** Runs `argv` in `cwd` and resolves when it ends (never rejects: the caller looks at `code`). */
export function runCommand(
  argv: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CommandRun> {
  const started = performance.now();
  const [file, ...args] = argv;
  return new Promise((resolve) => {
    const child = spawn(file ?? 'false', args, {
      cwd: options.cwd,
      env: options.env ?? applicationEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => killGroup(child), options.timeoutMs ?? 240_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ command: argv.join(' '), code, output, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** Stops a command and everything it started (it runs in a process group of its own). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** The commands of the README's "Start your own application" section, per package manager (its `sh` blocks). */
export function readmeCommands(): { npm: string[]; pnpm: string[] } {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Start your own application');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter(Boolean),
  );
  const npm = blocks.find((block) => block.some((line) => line.startsWith('npm create')));
  const pnpm = blocks.find((block) => block.some((line) => line.startsWith('pnpm create')));
  if (!npm || !pnpm) throw new Error('README: "Start your own application" needs an npm and a pnpm sh block');
  return { npm, pnpm };
}

/** A running application started by its run command, with its log lines. */
export interface RunningApplication {
  url: string;
  logLines: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** Starts an application's run command and resolves when it logs that it listens (or rejects with its output). */
export function startApplication(
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunningApplication> {
  const [file, ...args] = argv;
  const child = spawn(file ?? 'false', args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const logLines: Record<string, unknown>[] = [];
  const stop = async () => {
    killGroup(child);
    await closed;
  };
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      void stop().then(() =>
        reject(new Error(`${why}\nstderr:\n${stderr}\nlog:\n${logLines.map((l) => JSON.stringify(l)).join('\n')}`)),
      );
    };
    const timer = setTimeout(() => fail('the application did not log that it listens'), options.timeoutMs ?? 120_000);
    createInterface({ input: child.stdout }).on('line', (text) => {
      try {
        const line = JSON.parse(text) as Record<string, unknown>;
        logLines.push(line);
        if (line.msg === 'wildo backend listening' && typeof line.url === 'string') {
          clearTimeout(timer);
          resolve({ url: line.url, logLines, stop });
        }
      } catch {
        logLines.push({ text });
      }
    });
    void closed.then(() => {
      clearTimeout(timer);
      fail('the application exited before listening');
    });
  });
}
