import type { AgentClientProtocolExecutionProfile } from '@wildo/shared-lib';
import type { CodingLocationPredicate } from './coding-location.guard.js';

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
  /**
   * The host process's environment, where a subprocess's PATH, HOME, locale and temporary-directory variables (and
   * a launcher's `passEnv`) come from; default `process.env`. Credentials come from the backend's own `env` only.
   */
  hostEnv?: Readonly<Record<string, string | undefined>>;
}

/** The defaults of {@link CodingAgentSettings}. */
export const DEFAULT_CODING_TIMING = { stopGraceMs: 2_000, cancelGraceMs: 5_000 } as const;

/** A coding run's trusted inputs, after dispatch checked them. */
export interface CodingWorkspace {
  root: string;
  isPermitted: CodingLocationPredicate;
}
