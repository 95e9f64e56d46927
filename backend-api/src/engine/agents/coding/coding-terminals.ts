import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  RequestError,
  type CreateTerminalRequest,
  type CreateTerminalResponse,
  type TerminalExitStatus,
  type TerminalOutputResponse,
  type WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';
import { signalGroup } from './coding-agent.process.js';
import { refusal } from './coding-files.js';
import type { CodingLocationGuard } from './coding-location.guard.js';
import type { CodingRunEvents } from './coding-run.events.js';

/** Output bytes a terminal keeps when the agent names no limit (and the most it may ask for). */
export const MAX_TERMINAL_OUTPUT_BYTES = 1024 * 1024;
/** Terminals one run may have open at once. */
export const MAX_OPEN_TERMINALS = 16;

interface Terminal {
  child: ChildProcess;
  output: Buffer;
  truncated: boolean;
  limit: number;
  exit: Promise<TerminalExitStatus>;
  status: TerminalExitStatus | undefined;
}

/**
 * The client's terminal callbacks, offered only under an unrestricted ceiling: commands run without a shell, in a
 * working directory the location guard admits, with the run's filtered environment, each in its own process group
 * that ends with the run. A command can still reach anything its user can: this is not a sandbox.
 */
export class CodingTerminals {
  private readonly terminals = new Map<string, Terminal>();

  constructor(
    private readonly enabled: boolean,
    private readonly guard: CodingLocationGuard,
    private readonly env: Readonly<Record<string, string>>,
    private readonly events: CodingRunEvents,
  ) {}

  /** `terminal/create`. */
  async create(params: CreateTerminalRequest): Promise<CreateTerminalResponse> {
    const command = [params.command, ...(params.args ?? [])].join(' ');
    const refuse = (reason: Parameters<typeof refusal>[0]) => {
      this.events.emit({ type: 'terminal', command, decision: 'refused', reason });
      return refusal(reason);
    };
    if (!this.enabled) throw refuse('above_ceiling');
    if (this.terminals.size >= MAX_OPEN_TERMINALS) throw refuse('too_large');
    const cwd = params.cwd ?? this.guard.workspaceRoot;
    const decision = await this.guard.check(cwd);
    if (!decision.ok) throw refuse(decision.reason);
    const env = { ...this.env, ...Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value])) };
    const child = spawn(params.command, params.args ?? [], {
      cwd: decision.path,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const id = randomUUID();
    const limit = Math.min(Math.max(0, params.outputByteLimit ?? MAX_TERMINAL_OUTPUT_BYTES), MAX_TERMINAL_OUTPUT_BYTES);
    const terminal: Terminal = {
      child,
      output: Buffer.alloc(0),
      truncated: false,
      limit,
      status: undefined,
      exit: new Promise((resolve) => {
        const settle = (status: TerminalExitStatus) => {
          terminal.status ??= status;
          resolve(terminal.status);
        };
        child.once('exit', (code, signal) => settle({ exitCode: code, signal }));
        child.once('error', () => settle({ exitCode: 127, signal: null }));
      }),
    };
    const append = (chunk: Buffer) => this.append(terminal, chunk);
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    this.terminals.set(id, terminal);
    this.events.emit({ type: 'terminal', command, cwd: decision.path, decision: 'allowed' });
    return { terminalId: id };
  }

  /** `terminal/output`. */
  output(terminalId: string): TerminalOutputResponse {
    const terminal = this.find(terminalId);
    return {
      output: terminal.output.toString('utf8'),
      truncated: terminal.truncated,
      ...(terminal.status ? { exitStatus: terminal.status } : {}),
    };
  }

  /** `terminal/wait_for_exit`. */
  async waitForExit(terminalId: string): Promise<WaitForTerminalExitResponse> {
    return this.find(terminalId).exit;
  }

  /** `terminal/kill`: ends the command (and its children); the terminal stays readable. */
  kill(terminalId: string): Record<string, never> {
    const { child } = this.find(terminalId);
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    return {};
  }

  /** `terminal/release`: ends the command if it still runs and forgets the terminal. */
  release(terminalId: string): Record<string, never> {
    this.kill(terminalId);
    this.terminals.delete(terminalId);
    return {};
  }

  /** Ends every command the run started (called when the run ends, however it ends). */
  async releaseAll(): Promise<void> {
    const open = [...this.terminals.values()];
    this.terminals.clear();
    for (const { child } of open) if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    await Promise.all(open.map((terminal) => terminal.exit));
  }

  private find(terminalId: string): Terminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw RequestError.resourceNotFound(terminalId);
    return terminal;
  }

  /** Keeps the last `limit` bytes, cut at a character boundary. */
  private append(terminal: Terminal, chunk: Buffer): void {
    let output = Buffer.concat([terminal.output, chunk]);
    if (output.length > terminal.limit) {
      terminal.truncated = true;
      let start = output.length - terminal.limit;
      // Skip UTF-8 continuation bytes (10xxxxxx) so the kept text starts on a whole character.
      while (start < output.length && ((output[start] ?? 0) & 0xc0) === 0x80) start++;
      output = output.subarray(start);
    }
    terminal.output = output;
  }
}
