import type { AgentClientProtocolExecutionProfile, CodingAgent_StopReason } from '@wildo/shared-lib';
import type { CodingLocationPredicate } from './coding-location.guard.js';
import type { CodingProgressListener } from './coding-run.events.js';

/** What a host may decide about an ended turn: it finished, the agent asks a person, or the runner should continue. */
export type CodingTurnVerdict = 'finished' | 'awaiting_input' | 'continue';

/** An ended turn, as the host's classifier sees it. */
export interface CodingTurnSummary {
  /** The turn's number in this run, from 1. */
  turn: number;
  stopReason: CodingAgent_StopReason;
  /** The agent's text of the turn. */
  message: string;
}

/**
 * Classifies an ended turn (undefined keeps the default: a turn stopped by `MAX_TOKENS` or `MAX_TURN_REQUESTS` is
 * continued while `maxAutoContinuations` allows, any other is finished). `awaiting_input` parks the run with the
 * turn's message as the question; `continue` sends the agent an automatic continuation.
 */
export type CodingTurnClassifier = (turn: CodingTurnSummary) => CodingTurnVerdict | undefined;

/**
 * The coding-agent options of `invokeAgent` (its third argument): the trusted workspace, which locations the run
 * may touch, how to cancel its session, and (omitted from the guide's reduced excerpt) the host's event collection
 * and turn classification. A coding agent requires `workspaceRootPath` and `isPermittedCodingLocation`; a language
 * or image agent refuses all of them.
 */
export interface CodingAgentInvocationOptions {
  /** The workspace the coding agent works in (an absolute path): its working directory and the outer bound of every location. */
  workspaceRootPath?: string;
  /** Whether the run may touch `location` (an absolute path inside the workspace); checked on every file, permission and terminal call. */
  isPermittedCodingLocation?: (location: string) => boolean;
  /** Aborts the coding session: the turn is cancelled through the protocol and the subprocess and its children end. */
  codingSessionAbortSignal?: AbortSignal;
  /** Receives the run's progress events as they happen (not the chat token channel). */
  onCodingProgress?: CodingProgressListener;
  /** Decides what each ended turn means (see {@link CodingTurnClassifier}). */
  classifyCodingTurn?: CodingTurnClassifier;
}

/**
 * How a provider's coding agent is started: a command speaking ACP on its stdio. The provider owns it; an
 * application may replace it (a pinned install, a wrapper) through `createWildoBackend({ codingAgents })`.
 */
export interface CodingAgentLauncher {
  command: string;
  args?: readonly string[];
  /** Variables set for the subprocess. */
  env?: Readonly<Record<string, string>>;
  /** Host variables passed through besides PATH, HOME, locale and temporary-directory ones. */
  passEnv?: readonly string[];
  /** The variable the agent reads its model from, when its session offers no model option. */
  modelEnvVar?: string;
  /** The variable naming the agent's configuration directory: an empty one per run when the profile inherits no host configuration. */
  configDirEnvVar?: string;
  /**
   * Whether the agent, under this profile, can act without asking the client (host settings that pre-approve tools,
   * a shell of its own): a ceiling narrower than UNRESTRICTED cannot be enforced then, so dispatch refuses it.
   */
  escalatesPermissionsWithoutCallbacks: boolean | ((profile: AgentClientProtocolExecutionProfile) => boolean);
}

/** Coding-agent runtime settings of `createWildoBackend`; every one has a default. */
export interface CodingAgentSettings {
  /** Launchers by provider, replacing or adding to the built-in ones. */
  launchers?: Readonly<Record<string, CodingAgentLauncher>>;
  /** How long an agent gets to exit on its own (then SIGTERM, then SIGKILL, each after as long); default 2 s. */
  stopGraceMs?: number;
  /** How long a cancelled turn gets to report `cancelled` before the subprocess is ended; default 5 s. */
  cancelGraceMs?: number;
}

/** The defaults of {@link CodingAgentSettings}. */
export const DEFAULT_CODING_TIMING = { stopGraceMs: 2_000, cancelGraceMs: 5_000 } as const;

/** A coding run's trusted inputs, after dispatch checked them. */
export interface CodingWorkspace {
  root: string;
  isPermitted: CodingLocationPredicate;
}
