import {
  AgentClientProtocol_HostConfigurationInheritance,
  type AgentClientProtocolExecutionProfile,
} from '@wildo/shared-lib';
import type { CodingAgentLauncher } from './coding-agent.types.js';

/** The Claude Code adapter the built-in Anthropic launcher starts. */
export const CLAUDE_AGENT_ACP_PACKAGE = '@agentclientprotocol/claude-agent-acp@0.101.0';

/**
 * The launchers the framework ships, by provider. Claude Code reads the host's settings (which may pre-approve
 * tools) unless its configuration directory is replaced, so with any inherited host configuration it is treated as
 * escalating without callbacks: only an UNRESTRICTED ceiling is accepted for it then.
 */
export const BUILT_IN_CODING_AGENT_LAUNCHERS: Readonly<Record<string, CodingAgentLauncher>> = {
  anthropic: {
    // The adapter needs Node 22: npx puts the node@22 package's binary first on the PATH its bin starts with.
    command: 'npx',
    args: ['-y', '-p', 'node@22', '-p', CLAUDE_AGENT_ACP_PACKAGE, 'claude-agent-acp'],
    passEnv: ['npm_config_cache', 'NODE_EXTRA_CA_CERTS'],
    modelEnvVar: 'ANTHROPIC_MODEL',
    configDirEnvVar: 'CLAUDE_CONFIG_DIR',
    escalatesPermissionsWithoutCallbacks: (profile) =>
      profile.hostConfigurationInheritance !== AgentClientProtocol_HostConfigurationInheritance.NONE,
  },
};

/** Whether the launcher declares that this profile lets its agent act without the client's callbacks. */
export function escalatesWithoutCallbacks(
  launcher: CodingAgentLauncher,
  profile: AgentClientProtocolExecutionProfile,
): boolean {
  const declared = launcher.escalatesPermissionsWithoutCallbacks;
  return typeof declared === 'function' ? declared(profile) : declared;
}
