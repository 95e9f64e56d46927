import type { ResolvedAgent } from './agents-registry.service.js';
import { isCodingAgent } from './coding-agents.js';
import type { ProviderStatus } from '../providers/index.js';

/** An agent that cannot run with this environment: which one, its provider, and what to set or fix. */
export interface AgentProviderWarning {
  message: string;
  fields: { agent: string; provider: string; variable?: string };
}

/**
 * One start-up warning per agent whose provider cannot be called (a missing credential names the variable to set),
 * so an operator learns it from the log instead of from a refused turn. Agents whose provider is ready give none.
 *
 * @example
 * for (const w of agentProviderWarnings(agents.listAgents(), providers)) logger.warn(w.message, w.fields);
 */
export function agentProviderWarnings(
  agents: readonly ResolvedAgent[],
  providers: { status(ref: string): ProviderStatus },
): AgentProviderWarning[] {
  const warnings: AgentProviderWarning[] = [];
  for (const agent of agents) {
    // A coding agent runs its provider's own agent (its login or key is checked when it is dispatched).
    if (isCodingAgent(agent.declaration)) continue;
    const status = providers.status(agent.providerRef);
    if (status.available) continue;
    const base = { agent: agent.declaration.ref, provider: agent.providerRef };
    if (status.reason === 'missing_credential' && status.credentialEnvVar) {
      warnings.push({
        message: `agent "${base.agent}" cannot run: provider "${base.provider}" has no credential; set ${status.credentialEnvVar}`,
        fields: { ...base, variable: status.credentialEnvVar },
      });
    } else {
      warnings.push({ message: `agent "${base.agent}" cannot run: ${status.message}`, fields: base });
    }
  }
  return warnings;
}
