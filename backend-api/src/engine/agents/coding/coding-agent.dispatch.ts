import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  AgentClientProtocol_AuthMode,
  codingAgentExecutionProfile,
  findCatalogProvider,
  type AgentClientProtocolExecutionProfile,
  type CodingAgentConfig,
  type FlowsActors_Agent_Invocation,
} from '@wildo/shared-lib';
import type { RuntimeConfiguration } from '../../config/index.js';
import { FrameworkError } from '../../errors/index.js';
import type { CodingAgentInvocationOptions } from '../runtime/index.js';
import type { CodingAgentLauncher, CodingWorkspace } from './coding-agent.types.js';
import { escalatesWithoutCallbacks } from './coding-launchers.js';
import { isRestrictiveCeiling } from './coding-permission.policy.js';

// The checks a coding dispatch passes before anything is started or charged, each refusing with the fix.

/** The workspace and location predicate, required of every coding run. */
export async function admitWorkspace(options: CodingAgentInvocationOptions): Promise<CodingWorkspace> {
  const root = options.workspaceRootPath;
  if (typeof root !== 'string' || !path.isAbsolute(root) || root.includes('\u0000')) {
    throw new FrameworkError(
      'BAD_REQUEST',
      'A coding agent needs workspaceRootPath: the absolute path of the directory it works in.',
    );
  }
  const stats = await stat(root).catch(() => undefined);
  if (!stats?.isDirectory()) {
    throw new FrameworkError(
      'BAD_REQUEST',
      'workspaceRootPath is not an existing directory; pass the workspace root.',
      {
        details: { workspaceRootPath: root },
      },
    );
  }
  if (typeof options.isPermittedCodingLocation !== 'function') {
    throw new FrameworkError(
      'BAD_REQUEST',
      'A coding agent needs isPermittedCodingLocation: the predicate of the locations the task may touch (for the whole workspace, () => true).',
    );
  }
  return { root: path.resolve(root), isPermitted: options.isPermittedCodingLocation };
}

/** The agent's execution profile, allowed in this application environment. */
export function admitProfile(
  runtime: RuntimeConfiguration,
  config: CodingAgentConfig,
): AgentClientProtocolExecutionProfile {
  const profile = codingAgentExecutionProfile(runtime, config);
  if (!profile) {
    throw new FrameworkError('SERVICE_UNAVAILABLE', 'The coding agent’s execution profile is not configured.', {
      details: { executionProfileRef: config.executionProfileRef, providerRef: config.providerRef },
    });
  }
  const environment = runtime.application.environment;
  if (!profile.allowedApplicationEnvironments.includes(environment)) {
    throw new FrameworkError('FORBIDDEN', `The coding agent’s execution profile is not allowed in ${environment}.`, {
      details: { executionProfileRef: config.executionProfileRef },
    });
  }
  return profile;
}

/**
 * The launcher, and the ceiling it can honour: a restrictive ceiling is refused when the provider declares that,
 * under this profile, its agent acts without asking the client (the ceiling could not be enforced).
 */
export function admitLauncher(
  launchers: Readonly<Record<string, CodingAgentLauncher>>,
  config: CodingAgentConfig,
  profile: AgentClientProtocolExecutionProfile,
): CodingAgentLauncher {
  const launcher = Object.hasOwn(launchers, config.providerRef) ? launchers[config.providerRef] : undefined;
  if (!launcher) {
    throw new FrameworkError(
      'SERVICE_UNAVAILABLE',
      `No coding agent launcher is known for provider "${config.providerRef}".`,
      {
        details: { fix: 'pass one in createWildoBackend({ codingAgents: { launchers } })' },
      },
    );
  }
  if (isRestrictiveCeiling(profile.permissionCeiling) && escalatesWithoutCallbacks(launcher, profile)) {
    throw new FrameworkError(
      'FORBIDDEN',
      `The ${profile.permissionCeiling} permission ceiling cannot be enforced for provider "${config.providerRef}": under this execution profile its agent acts without asking the client. Use an UNRESTRICTED profile, or one under which the agent asks (for example hostConfigurationInheritance NONE).`,
      { details: { executionProfileRef: config.executionProfileRef } },
    );
  }
  return launcher;
}

/** The credential variable an API_KEY profile hands to the subprocess (HOST_MANAGED uses the host's login: none). */
export function admitCredential(
  env: Readonly<Record<string, string | undefined>>,
  config: CodingAgentConfig,
  profile: AgentClientProtocolExecutionProfile,
): Record<string, string> {
  if (profile.authMode !== AgentClientProtocol_AuthMode.API_KEY) return {};
  const credentialEnvVar = findCatalogProvider(config.providerRef)?.credentialEnvVar;
  const value = credentialEnvVar ? env[credentialEnvVar] : undefined;
  if (!credentialEnvVar || !value) {
    throw new FrameworkError(
      'SERVICE_UNAVAILABLE',
      `The coding agent’s provider has no credential; set ${credentialEnvVar ?? 'its credential variable'}.`,
    );
  }
  return { [credentialEnvVar]: value };
}

/** Whose session a run opens: the initiator's organization and user (a continuation must come from the same). */
export function ownerKeyOf(initiator: FlowsActors_Agent_Invocation['initiator']): string {
  return JSON.stringify([initiator.organizationId ?? null, initiator.userId ?? null]);
}
