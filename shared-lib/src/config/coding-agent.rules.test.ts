import { describe, expect, it } from 'vitest';
import { codingAgentBindingProblems, codingAgentExecutionProfile } from './coding-agent.rules.js';
import { companionCodingAgent, problemsOf } from './config.test-helpers.js';
import { validateSaaSConfig } from './validate-saas-config.js';

const companion = 'providers.scopes.companion.providers.anthropic';
const acp = 'providerConfigurations.anthropic.agent_client_protocol';

function profiles(config: Record<string, any>): Record<string, any> {
  return config.providerConfigurations.anthropic.agent_client_protocol.executionProfiles;
}

function validated(config: Record<string, any>) {
  const result = validateSaaSConfig(config);
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return result.config;
}

describe('coding-agent rules of the configuration', () => {
  it("accepts the guide's companion scope and profile", () => {
    expect(problemsOf(companionCodingAgent())).toEqual([]);
  });

  it('refuses an AI_LLM entry used for the coding transport', () => {
    const config = companionCodingAgent();
    config.providers.scopes.companion.providers.anthropic = {
      engineCapabilities: ['AI_LLM'],
      providerCapabilities: ['LLM_CHAT', 'CODING_AGENT'],
      protocols: ['LLM_PROVIDER', 'AGENT_CLIENT_PROTOCOL'],
    };
    expect(problemsOf(config)).toEqual([
      `${companion}.engineCapabilities[0]: an AI_LLM entry cannot carry the coding transport AGENT_CLIENT_PROTOCOL; replace AI_LLM with AI_CODING_AGENT here (language-model calls are declared in providers.scopes.backend)`,
    ]);
  });

  it('refuses the coding transport without AI_CODING_AGENT', () => {
    const config = companionCodingAgent();
    config.providers.scopes.companion.providers.anthropic.engineCapabilities = [];
    expect(problemsOf(config)).toEqual([
      `${companion}.engineCapabilities: AGENT_CLIENT_PROTOCOL carries AI_CODING_AGENT; add AI_CODING_AGENT to engineCapabilities`,
    ]);
  });

  it('refuses the coding transport outside the companion scope', () => {
    const config = companionCodingAgent();
    config.providers.scopes.backend.providers.anthropic = {
      engineCapabilities: ['AI_LLM', 'AI_CODING_AGENT'],
      providerCapabilities: ['LLM_CHAT', 'CODING_AGENT'],
      protocols: ['LLM_PROVIDER', 'AGENT_CLIENT_PROTOCOL'],
    };
    expect(problemsOf(config)).toEqual([
      `providers.scopes.backend.providers.anthropic.protocols[1]: coding agents run under the companion scope; declare AGENT_CLIENT_PROTOCOL for anthropic in providers.scopes.companion.providers.anthropic (engineCapabilities [AI_CODING_AGENT], providerCapabilities ['CODING_AGENT'], protocols ['AGENT_CLIENT_PROTOCOL']) and remove it here`,
    ]);
  });

  it('refuses a default profile not allowed in the application environment', () => {
    const config = companionCodingAgent();
    profiles(config)['claude-code-prod'] = {
      ...profiles(config)['claude-code-acp'],
      allowedApplicationEnvironments: ['PRODUCTION'],
    };
    expect(problemsOf(config)).toEqual([]);
    config.providerConfigurations.anthropic.agent_client_protocol.defaultExecutionProfileRef = 'claude-code-prod';
    expect(problemsOf(config)).toEqual([
      `${acp}.defaultExecutionProfileRef: execution profile "claude-code-prod" is not allowed in DEVELOPMENT (application.environment; its allowedApplicationEnvironments: PRODUCTION); add DEVELOPMENT there or use a profile allowed in DEVELOPMENT`,
    ]);
  });

  it('refuses profiles none of which may run in the application environment', () => {
    const config = companionCodingAgent();
    config.application.environment = 'STAGING';
    expect(problemsOf(config)).toEqual([
      `${acp}.executionProfiles: no execution profile is allowed in STAGING (application.environment); add STAGING to the allowedApplicationEnvironments of the profile to use here`,
    ]);
  });

  it("refuses a host-managed login without the host's configuration", () => {
    const config = companionCodingAgent();
    profiles(config)['claude-code-acp'].hostConfigurationInheritance = 'NONE';
    expect(problemsOf(config)).toEqual([
      `${acp}.executionProfiles["claude-code-acp"].hostConfigurationInheritance: HOST_MANAGED uses the agent login of the host, which NONE withholds from the subprocess; set hostConfigurationInheritance to APPLICATION_SCOPED, or authMode to API_KEY`,
    ]);
    profiles(config)['claude-code-acp'].authMode = 'API_KEY';
    expect(problemsOf(config)).toEqual([]);
  });
});

describe('a coding agent against the configuration', () => {
  const binding = { providerRef: 'anthropic', executionProfileRef: 'claude-code-acp' };

  it('accepts the guide binding and finds its profile', () => {
    const config = validated(companionCodingAgent());
    expect(codingAgentBindingProblems(config, binding)).toEqual([]);
    expect(codingAgentExecutionProfile(config, binding)).toMatchObject({ permissionCeiling: 'UNRESTRICTED' });
  });

  it('refuses a coding agent without an executionProfileRef, naming the profiles', () => {
    const config = validated(companionCodingAgent());
    expect(codingAgentBindingProblems(config, { providerRef: 'anthropic' })).toEqual([
      {
        path: 'config.executionProfileRef',
        message: `a coding agent requires executionProfileRef (the authority and environment its subprocess runs under); set it to one of ${acp}.executionProfiles (claude-code-acp)`,
      },
    ]);
  });

  it('refuses an executionProfileRef that names no profile', () => {
    const config = validated(companionCodingAgent());
    expect(codingAgentBindingProblems(config, { ...binding, executionProfileRef: 'codex-acp' })).toEqual([
      {
        path: 'config.executionProfileRef',
        message: `no execution profile "codex-acp" is declared; set executionProfileRef to one of ${acp}.executionProfiles (claude-code-acp)`,
      },
    ]);
  });

  it('refuses a profile not allowed in the application environment', () => {
    const config = companionCodingAgent();
    profiles(config)['claude-code-prod'] = {
      ...profiles(config)['claude-code-acp'],
      allowedApplicationEnvironments: ['PRODUCTION'],
    };
    const problems = codingAgentBindingProblems(validated(config), {
      ...binding,
      executionProfileRef: 'claude-code-prod',
    });
    expect(problems.map((p) => p.message)).toEqual([
      'execution profile "claude-code-prod" is not allowed in DEVELOPMENT (application.environment; its allowedApplicationEnvironments: PRODUCTION); add DEVELOPMENT there or use a profile allowed in DEVELOPMENT',
    ]);
  });

  it('refuses a provider only the backend scope declares, for AI_LLM', () => {
    const config = companionCodingAgent();
    delete config.providers.scopes.companion;
    expect(codingAgentBindingProblems(validated(config), binding)).toEqual([
      {
        path: 'config.providerRef',
        message: `provider "anthropic" is not declared in providers.scopes.companion.providers; its AI_LLM entry in providers.scopes.backend cannot substitute for the companion transport; declare it there with engineCapabilities [AI_CODING_AGENT], providerCapabilities ['CODING_AGENT'], protocols ['AGENT_CLIENT_PROTOCOL']`,
      },
    ]);
  });

  it('refuses a coding agent while AI_CODING_AGENT is disabled', () => {
    const config = validated(companionCodingAgent());
    config.engineCapabilities.AI_CODING_AGENT = { enabled: false };
    expect(codingAgentBindingProblems(config, binding).map((p) => p.message)).toEqual([
      'engine capability AI_CODING_AGENT is disabled; set engineCapabilities.AI_CODING_AGENT.enabled to true',
    ]);
  });
});
