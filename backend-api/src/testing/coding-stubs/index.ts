// `@wildo/backend-api/testing`: a scripted ACP coding agent (a real subprocess speaking the protocol through the
// official SDK's agent side), to develop and test coding-agent hosts without a provider account.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CodingAgentLauncher } from '../../engine/agents/coding/coding-agent.types.js';

/** The stub agent's script file (run it with `node`). */
export const ACP_STUB_AGENT_PATH = fileURLToPath(new URL('./acp-stub-agent.mjs', import.meta.url));

/** One step of a stub turn (see the header of `acp-stub-agent.mjs` for what each does). */
export type AcpStubStep =
  | { say: string }
  | { sayPrompt: true }
  | { sayHistory: true }
  | { sayModel: true }
  | { sayEnv: string }
  | { read: string }
  | { write: string; content?: string }
  | {
      permission: {
        kind?: string;
        title?: string;
        locations?: string[];
        options?: { optionId: string; name: string; kind: string }[];
      };
    }
  | { terminal: { command: string; args?: string[]; cwd?: string } }
  | { ask: string }
  | { toolCall: { id: string; title: string; kind?: string; status?: string } }
  | { spawnChild: true }
  | { hang: true; ignoreCancel?: boolean }
  | { stop: 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal' | 'cancelled' }
  | { usage: { inputTokens: number; outputTokens: number } }
  | { exit: number };

/** A prompt that installs a script in the stub's session: each prompt of the session plays the next turn (the last repeats). */
export function acpStubScript(...turns: AcpStubStep[][]): string {
  return JSON.stringify({ stubScript: { turns } });
}

/** Options of {@link acpStubLauncher}. */
export interface AcpStubLauncherOptions {
  /** Where the stub keeps its sessions, so a later process can load or resume them. */
  stateDir?: string;
  /** What it declares: session/load, session/resume (default both), or neither. */
  capabilities?: readonly ('load' | 'resume')[];
  /** Whether it is declared to act without the client's callbacks (then only UNRESTRICTED ceilings are accepted). */
  escalatesPermissionsWithoutCallbacks?: boolean;
  /** Extra environment for the subprocess. */
  env?: Readonly<Record<string, string>>;
}

/**
 * A launcher for the stub agent, to pass as `createWildoBackend({ codingAgents: { launchers: { anthropic: ... } } })`.
 *
 * @example
 * const launchers = { anthropic: acpStubLauncher({ stateDir }) };
 */
export function acpStubLauncher(options: AcpStubLauncherOptions = {}): CodingAgentLauncher {
  const capabilities = options.capabilities ?? ['load', 'resume'];
  return {
    command: process.execPath,
    args: [ACP_STUB_AGENT_PATH],
    env: {
      ...options.env,
      ACP_STUB_CAPABILITIES: capabilities.length === 0 ? 'none' : capabilities.join(','),
      ...(options.stateDir ? { ACP_STUB_STATE_DIR: options.stateDir } : {}),
    },
    escalatesPermissionsWithoutCallbacks: options.escalatesPermissionsWithoutCallbacks ?? false,
  };
}

/**
 * Whether a process is still running (a zombie, killed but not yet reaped by its new parent, counts as gone).
 * For tests that check that a run ended its subprocess tree.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; Z is a zombie (Linux only; elsewhere signal 0 is the answer).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}
