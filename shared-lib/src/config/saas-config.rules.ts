import { collectCodingAgentConfigProblems } from './coding-agent.rules.js';
import type { CrossFieldProblem } from './config-problem.js';
import { collectEndpointProblems } from './endpoint.rules.js';
import { collectProviderConfigurationProblems, collectProviderProblems } from './provider.rules.js';
import type { SaaSConfig } from './saas-config.schema.js';

/** Runs every rule that relates two sections of an otherwise well-formed configuration. */
export function collectCrossFieldProblems(config: SaaSConfig): CrossFieldProblem[] {
  return [
    ...collectProviderProblems(config),
    ...collectProviderConfigurationProblems(config),
    ...collectCodingAgentConfigProblems(config),
    ...collectEndpointProblems(config),
  ];
}
