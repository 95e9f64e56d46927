import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream, type Stream } from '@agentclientprotocol/sdk';

/** How to start one agent subprocess. */
export interface CodingAgentSpawn {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

/** How a subprocess ended. */
export interface CodingAgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The environment variables every subprocess may see from the host; anything else must be passed explicitly. */
export const BASE_PASSED_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TMPDIR',
  'TZ',
  'SystemRoot',
  'ComSpec',
  'PATHEXT',
] as const;

/** Characters of the subprocess's stderr kept for the log when it fails. */
const STDERR_TAIL = 4_000;

/** Sends `signal` to the process group led by `pid`; a group already gone is not an error. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // A negative pid addresses the whole group: the agent and every child it started (unless one left the group).
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // ESRCH: nothing left to signal.
  }
}

/**
 * One agent subprocess speaking ACP over its stdio, started as the leader of its own process group so that ending
 * it ends its children too. The host's environment is not inherited: the caller passes exactly what it may see.
 */
export class CodingAgentProcess {
  readonly stream: Stream;
  readonly exited: Promise<CodingAgentExit>;
  private stderr = '';
  private exit: CodingAgentExit | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
      // A command that cannot start (ENOENT, EACCES) reports here, not through 'exit'.
      child.once('error', (error) => {
        this.stderr += `\n${error.message}`;
        this.exit ??= { code: null, signal: null };
        resolve(this.exit);
      });
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    // Writing to an agent that already exited must not crash the backend.
    child.stdin.on('error', () => undefined);
    this.stream = ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    );
  }

  /** Starts the agent. */
  static spawn(options: CodingAgentSpawn): CodingAgentProcess {
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: { ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    return new CodingAgentProcess(child);
  }

  /** The process id (undefined when it could not start). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the subprocess has exited. */
  get hasExited(): boolean {
    return this.exit !== undefined;
  }

  /** The end of what the agent wrote to stderr (for the operator's log, never for a client). */
  get stderrTail(): string {
    return this.stderr.trim();
  }

  /**
   * Ends the agent and its process group: stdin is closed (an agent may exit on its own), then after `graceMs`
   * the group gets SIGTERM, and after another `graceMs` SIGKILL. Children are signalled even when the leader has
   * already exited, so nothing it started outlives the run.
   */
  async stop(graceMs: number): Promise<CodingAgentExit> {
    const pid = this.child.pid;
    this.child.stdin.end();
    if (pid === undefined) return this.exited;
    if (!(await this.exitsWithin(graceMs))) {
      signalGroup(pid, 'SIGTERM');
      await this.exitsWithin(graceMs);
    }
    signalGroup(pid, 'SIGKILL');
    return this.exited;
  }

  /** Ends the agent and its process group at once (cancellation, a timed-out turn). */
  async kill(): Promise<CodingAgentExit> {
    const pid = this.child.pid;
    if (pid !== undefined) signalGroup(pid, 'SIGKILL');
    return this.exited;
  }

  private exitsWithin(ms: number): Promise<boolean> {
    if (this.exit) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/**
 * The subprocess environment: the base variables and the launcher's `passEnv` copied from the host process, then
 * the launcher's own and the run's (credential, model, configuration directory). Nothing else of the host leaks in
 * (the backend's database URL, primary secret and provider keys stay out unless named).
 */
export function subprocessEnvironment(
  host: Readonly<Record<string, string | undefined>>,
  passEnv: readonly string[],
  extra: Readonly<Record<string, string>>,
): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of [...BASE_PASSED_ENV, ...passEnv]) {
    const value = host[name];
    if (value !== undefined) passed[name] = value;
  }
  return { ...passed, ...extra };
}
