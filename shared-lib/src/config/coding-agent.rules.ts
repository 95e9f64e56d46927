import { EngineCapability } from '../models/engine-capability.js';
import type { APPLICATION_ENVIRONMENT } from './application-environment.js';
import type { CrossFieldProblem } from './config-problem.js';
import {
  AgentClientProtocol_AuthMode,
  AgentClientProtocol_HostConfigurationInheritance,
  ExternalProvider_ExchangeProtocol_Kind,
} from './external-provider.models.js';
import {
  PROVIDER_SCOPES,
  type AgentClientProtocolExecutionProfile,
  type ProviderConfigurations,
  type ProviderDeclaration,
  type ProviderScopeName,
} from './providers.schema.js';

// The coding-agent rules, shared by `wildo config sync` (the configuration alone, and the application's coding
// agents when it can load them) and start-up (each coding agent against the generated runtime configuration).

const ACP = ExternalProvider_ExchangeProtocol_Kind.AGENT_CLIENT_PROTOCOL;
const CODING = EngineCapability.AI_CODING_AGENT;
const COMPANION_ENTRY = `engineCapabilities [${CODING}], providerCapabilities ['CODING_AGENT'], protocols ['AGENT_CLIENT_PROTOCOL']`;

/** What the coding-agent rules read: the validated configuration and the generated runtime one both fit. */
export interface CodingAgentRulesConfig {
  application: { environment: APPLICATION_ENVIRONMENT };
  engineCapabilities: Partial<Record<EngineCapability, { enabled: boolean }>>;
  providers: {
    scopes: Partial<Record<ProviderScopeName, { providers: Record<string, ProviderDeclaration> } | undefined>>;
  };
  providerConfigurations: ProviderConfigurations;
}

/** What a coding agent's binding names: its provider and (required) execution profile. */
export interface CodingAgentBindingRef {
  providerRef: string;
  executionProfileRef?: string | undefined;
}

/** A problem of one coding agent, at a path relative to the agent declaration (`config.executionProfileRef`, ...). */
export interface CodingAgentBindingProblem {
  path: string;
  message: string;
}

type Path = (string | number)[];

const profilesPath = (provider: string) => `providerConfigurations.${provider}.${ACP}.executionProfiles`;

function profilesOf(config: CodingAgentRulesConfig, provider: string) {
  const settings = Object.hasOwn(config.providerConfigurations, provider)
    ? config.providerConfigurations[provider]?.[ACP]
    : undefined;
  return settings?.executionProfiles ?? {};
}

function allowedHere(config: CodingAgentRulesConfig, profile: AgentClientProtocolExecutionProfile): boolean {
  return profile.allowedApplicationEnvironments.includes(config.application.environment);
}

function notAllowedMessage(config: CodingAgentRulesConfig, ref: string, profile: AgentClientProtocolExecutionProfile) {
  const environment = config.application.environment;
  return `execution profile "${ref}" is not allowed in ${environment} (application.environment; its allowedApplicationEnvironments: ${profile.allowedApplicationEnvironments.join(', ')}); add ${environment} there or use a profile allowed in ${environment}`;
}

/** A declaration carrying the coding transport: outside the companion scope, or as an AI_LLM entry, it cannot run. */
function transportProblems(scope: ProviderScopeName, name: string, declared: ProviderDeclaration, path: Path) {
  const problems: CrossFieldProblem[] = [];
  const at = declared.protocols.indexOf('AGENT_CLIENT_PROTOCOL');
  if (at === -1) return problems;
  if (scope !== 'companion') {
    problems.push({
      path: [...path, 'protocols', at],
      message: `coding agents run under the companion scope; declare AGENT_CLIENT_PROTOCOL for ${name} in providers.scopes.companion.providers.${name} (${COMPANION_ENTRY}) and remove it here`,
    });
    return problems;
  }
  const llm = declared.engineCapabilities.indexOf(EngineCapability.AI_LLM);
  if (llm !== -1) {
    problems.push({
      path: [...path, 'engineCapabilities', llm],
      message: `an ${EngineCapability.AI_LLM} entry cannot carry the coding transport AGENT_CLIENT_PROTOCOL; replace ${EngineCapability.AI_LLM} with ${CODING} here (language-model calls are declared in providers.scopes.backend)`,
    });
  } else if (!declared.engineCapabilities.includes(CODING)) {
    problems.push({
      path: [...path, 'engineCapabilities'],
      message: `AGENT_CLIENT_PROTOCOL carries ${CODING}; add ${CODING} to engineCapabilities`,
    });
  }
  return problems;
}

/** A host login without the host configuration it lives in. */
function authProblems(path: Path, ref: string, profile: AgentClientProtocolExecutionProfile): CrossFieldProblem[] {
  if (
    profile.authMode !== AgentClientProtocol_AuthMode.HOST_MANAGED ||
    profile.hostConfigurationInheritance !== AgentClientProtocol_HostConfigurationInheritance.NONE
  ) {
    return [];
  }
  return [
    {
      path: [...path, 'executionProfiles', ref, 'hostConfigurationInheritance'],
      message:
        'HOST_MANAGED uses the agent login of the host, which NONE withholds from the subprocess; set hostConfigurationInheritance to APPLICATION_SCOPED, or authMode to API_KEY',
    },
  ];
}

/** Profiles that cannot run: a host login without its configuration, none (or not the default) allowed in this environment. */
function profileProblems(config: CodingAgentRulesConfig): CrossFieldProblem[] {
  const problems: CrossFieldProblem[] = [];
  const environment = config.application.environment;
  for (const [name, byProtocol] of Object.entries(config.providerConfigurations)) {
    const settings = byProtocol[ACP];
    if (!settings) continue;
    const path = ['providerConfigurations', name, ACP];
    const entries = Object.entries(settings.executionProfiles);
    for (const [ref, profile] of entries) problems.push(...authProblems(path, ref, profile));
    if (entries.length > 0 && !entries.some(([, profile]) => allowedHere(config, profile))) {
      problems.push({
        path: [...path, 'executionProfiles'],
        message: `no execution profile is allowed in ${environment} (application.environment); add ${environment} to the allowedApplicationEnvironments of the profile to use here`,
      });
      continue;
    }
    const defaultRef = settings.defaultExecutionProfileRef;
    const profile = defaultRef !== undefined ? settings.executionProfiles[defaultRef] : undefined;
    if (defaultRef !== undefined && profile && !allowedHere(config, profile)) {
      problems.push({
        path: [...path, 'defaultExecutionProfileRef'],
        message: notAllowedMessage(config, defaultRef, profile),
      });
    }
  }
  return problems;
}

/**
 * Rules for coding agents in the configuration alone: the coding transport is declared in the companion scope by
 * an AI_CODING_AGENT entry (an AI_LLM entry cannot carry it), a HOST_MANAGED profile inherits the host configuration
 * its login lives in, and the profiles (the default one among them) can run in `application.environment`.
 */
export function collectCodingAgentConfigProblems(config: CodingAgentRulesConfig): CrossFieldProblem[] {
  const problems: CrossFieldProblem[] = [];
  for (const scope of PROVIDER_SCOPES) {
    const providers = config.providers.scopes[scope]?.providers ?? {};
    for (const [name, declared] of Object.entries(providers)) {
      problems.push(...transportProblems(scope, name, declared, ['providers', 'scopes', scope, 'providers', name]));
    }
  }
  return [...problems, ...profileProblems(config)];
}

/** Why the companion scope cannot run this provider's coding agents (undefined when it can). */
function providerProblem(config: CodingAgentRulesConfig, provider: string): string | undefined {
  const companion = config.providers.scopes.companion?.providers ?? {};
  const declared = Object.hasOwn(companion, provider) ? companion[provider] : undefined;
  if (!declared?.engineCapabilities.includes(CODING)) {
    const backend = config.providers.scopes.backend?.providers ?? {};
    const llmEntry =
      Object.hasOwn(backend, provider) && backend[provider]?.engineCapabilities.includes(EngineCapability.AI_LLM);
    const instead = llmEntry
      ? `its ${EngineCapability.AI_LLM} entry in providers.scopes.backend cannot substitute for the companion transport; `
      : '';
    const where = declared ? `does not declare ${CODING} in` : 'is not declared in';
    return `provider "${provider}" ${where} providers.scopes.companion.providers; ${instead}declare it there with ${COMPANION_ENTRY}`;
  }
  if (config.engineCapabilities[CODING]?.enabled !== true) {
    return `engine capability ${CODING} is disabled; set engineCapabilities.${CODING}.enabled to true`;
  }
  return undefined;
}

/** Why the binding's execution profile cannot be used (undefined when it can). */
function profileProblem(config: CodingAgentRulesConfig, binding: CodingAgentBindingRef): string | undefined {
  const profiles = profilesOf(config, binding.providerRef);
  const refs = Object.keys(profiles);
  const declared =
    refs.length > 0
      ? `one of ${profilesPath(binding.providerRef)} (${refs.join(', ')})`
      : `a profile you declare under ${profilesPath(binding.providerRef)}`;
  const ref = binding.executionProfileRef;
  if (ref === undefined || ref === '') {
    return `a coding agent requires executionProfileRef (the authority and environment its subprocess runs under); set it to ${declared}`;
  }
  const profile = Object.hasOwn(profiles, ref) ? profiles[ref] : undefined;
  if (!profile) return `no execution profile "${ref}" is declared; set executionProfileRef to ${declared}`;
  if (!allowedHere(config, profile)) return notAllowedMessage(config, ref, profile);
  return undefined;
}

/**
 * The problems of one coding agent against the configuration: a provider the companion scope runs coding agents of,
 * with AI_CODING_AGENT enabled, and an `executionProfileRef` naming a declared profile allowed in this environment.
 *
 * @example
 * codingAgentBindingProblems(config, { providerRef: 'anthropic' });
 * // [{ path: 'config.executionProfileRef', message: 'a coding agent requires executionProfileRef (...); set it to one of ...' }]
 */
export function codingAgentBindingProblems(
  config: CodingAgentRulesConfig,
  binding: CodingAgentBindingRef,
): CodingAgentBindingProblem[] {
  const problems: CodingAgentBindingProblem[] = [];
  const profile = profileProblem(config, binding);
  if (profile) problems.push({ path: 'config.executionProfileRef', message: profile });
  const provider = providerProblem(config, binding.providerRef);
  if (provider) problems.push({ path: 'config.providerRef', message: provider });
  return problems;
}

/** The execution profile a valid binding names (undefined when {@link codingAgentBindingProblems} reports one). */
export function codingAgentExecutionProfile(
  config: CodingAgentRulesConfig,
  binding: CodingAgentBindingRef,
): AgentClientProtocolExecutionProfile | undefined {
  const profiles = profilesOf(config, binding.providerRef);
  const ref = binding.executionProfileRef;
  return ref !== undefined && Object.hasOwn(profiles, ref) ? profiles[ref] : undefined;
}
