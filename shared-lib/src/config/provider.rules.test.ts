import { describe, expect, it } from 'vitest';
import { baseConfig, companionCodingAgent, problemsOf } from './config.test-helpers.js';

const backend = 'providers.scopes.backend';

function withAnthropic(declaration: Record<string, unknown>) {
  const config = baseConfig();
  config.providers.scopes.backend.providers.anthropic = declaration;
  return config;
}

describe('selection rules', () => {
  it('refuses a primary the scope does not declare, even if another scope does', () => {
    const config = baseConfig();
    config.providers.scopes.backend.selection.AI_LLM.primary = 'openai';
    config.providers.scopes.companion = {
      providers: {
        openai: { engineCapabilities: ['AI_LLM'], providerCapabilities: ['LLM_CHAT'], protocols: ['LLM_PROVIDER'] },
      },
    };
    expect(problemsOf(config)).toEqual([
      `${backend}.selection.AI_LLM.primary: "openai" is not declared in ${backend}.providers; declare it there or select a declared provider`,
    ]);
  });

  it('refuses a whenUnavailable entry the scope does not declare', () => {
    const config = baseConfig();
    config.providers.scopes.backend.selection.AI_LLM.whenUnavailable = ['openai'];
    expect(problemsOf(config)).toEqual([
      `${backend}.selection.AI_LLM.whenUnavailable[0]: "openai" is not declared in ${backend}.providers; declare it there or select a declared provider`,
    ]);
  });

  it('refuses the primary repeated in whenUnavailable', () => {
    const config = baseConfig();
    config.providers.scopes.backend.selection.AI_LLM.whenUnavailable = ['anthropic'];
    expect(problemsOf(config)).toEqual([
      `${backend}.selection.AI_LLM.whenUnavailable[0]: "anthropic" is already the primary; remove it from whenUnavailable`,
    ]);
  });

  it('refuses a selection for a capability that is not enabled', () => {
    const config = baseConfig();
    config.engineCapabilities.AI_LLM.enabled = false;
    expect(problemsOf(config)).toContain(
      `${backend}.selection.AI_LLM: AI_LLM is not enabled; set engineCapabilities.AI_LLM.enabled to true or remove this selection`,
    );
  });

  it('refuses selecting a declared provider that does not declare the capability', () => {
    const config = baseConfig();
    config.engineCapabilities.LLM_OBSERVABILITY = { enabled: true };
    config.providers.scopes.backend.providers.posthog = {
      engineCapabilities: ['LLM_OBSERVABILITY'],
      providerCapabilities: ['LLM_OBSERVABILITY'],
      protocols: [],
    };
    config.providers.scopes.backend.selection.AI_LLM.whenUnavailable = ['posthog'];
    expect(problemsOf(config)).toEqual([
      `${backend}.selection.AI_LLM.whenUnavailable[0]: "posthog" does not declare AI_LLM in the backend scope; add it to its engineCapabilities or select another provider`,
    ]);
  });
});

describe('provider declaration rules', () => {
  it('refuses a provider the catalogue does not know', () => {
    const config = baseConfig();
    config.providers.scopes.backend.providers.mistral = {};
    expect(problemsOf(config)).toEqual([
      `${backend}.providers.mistral: "mistral" is not a provider the framework knows (known: anthropic, openai, posthog); fix the name`,
    ]);
  });

  it('refuses an engine capability that is not enabled', () => {
    const config = withAnthropic({
      engineCapabilities: ['AI_LLM', 'AI_CODING_AGENT'],
      providerCapabilities: ['LLM_CHAT'],
      protocols: ['LLM_PROVIDER'],
    });
    expect(problemsOf(config)).toEqual([
      `${backend}.providers.anthropic.engineCapabilities[1]: AI_CODING_AGENT is not enabled; set engineCapabilities.AI_CODING_AGENT.enabled to true or remove it here`,
    ]);
  });

  it('refuses an engine capability the provider cannot serve', () => {
    const config = withAnthropic({
      engineCapabilities: ['AI_LLM', 'AI_EMBEDDINGS'],
      providerCapabilities: ['LLM_CHAT'],
      protocols: ['LLM_PROVIDER'],
    });
    config.engineCapabilities.AI_EMBEDDINGS = { enabled: true };
    expect(problemsOf(config)).toEqual([
      `${backend}.providers.anthropic.engineCapabilities[1]: anthropic cannot serve AI_EMBEDDINGS (it serves AI_LLM, AI_CODING_AGENT); remove it here`,
    ]);
  });

  it('refuses a provider capability the catalogue does not list for that provider', () => {
    const config = withAnthropic({
      engineCapabilities: ['AI_LLM'],
      providerCapabilities: ['LLM_CHAT', 'IMAGE_GENERATION'],
      protocols: ['LLM_PROVIDER'],
    });
    expect(problemsOf(config)).toEqual([
      `${backend}.providers.anthropic.providerCapabilities[1]: anthropic cannot serve IMAGE_GENERATION (it serves LLM_CHAT, CODING_AGENT); remove it here`,
    ]);
  });

  it('refuses a protocol the provider does not speak', () => {
    const config = withAnthropic({
      engineCapabilities: ['AI_LLM'],
      providerCapabilities: ['LLM_CHAT'],
      protocols: ['LLM_PROVIDER', 'EMBEDDINGS_PROVIDER'],
    });
    expect(problemsOf(config)).toEqual([
      `${backend}.providers.anthropic.protocols[1]: anthropic does not speak EMBEDDINGS_PROVIDER (it speaks LLM_PROVIDER, AGENT_CLIENT_PROTOCOL); remove it here`,
    ]);
  });

  it('refuses a reserved protocol name', () => {
    const config = withAnthropic({
      engineCapabilities: ['AI_LLM'],
      providerCapabilities: ['LLM_CHAT'],
      protocols: ['LLM_PROVIDER', 'AUDIO_PROVIDER'],
    });
    expect(problemsOf(config)).toEqual([
      `${backend}.providers.anthropic.protocols[1]: AUDIO_PROVIDER is a reserved protocol name that no provider runs yet; remove it`,
    ]);
  });

  it('asks for the provider capability and protocol an engine capability needs', () => {
    const config = withAnthropic({ engineCapabilities: ['AI_LLM'] });
    expect(problemsOf(config)).toEqual([
      `${backend}.providers.anthropic.providerCapabilities: AI_LLM is served by anthropic's LLM_CHAT; add 'LLM_CHAT' to providerCapabilities`,
    ]);
    expect(problemsOf(withAnthropic({ engineCapabilities: ['AI_LLM'], providerCapabilities: ['LLM_CHAT'] }))).toEqual([
      `${backend}.providers.anthropic.protocols: LLM_CHAT is served over LLM_PROVIDER; add 'LLM_PROVIDER' to protocols`,
    ]);
  });

  it('accepts an observability provider without a protocol and an image provider without an engine capability', () => {
    const config = baseConfig();
    config.engineCapabilities.LLM_OBSERVABILITY = { enabled: true };
    config.providers.scopes.backend.providers.posthog = {
      engineCapabilities: ['LLM_OBSERVABILITY'],
      providerCapabilities: ['LLM_OBSERVABILITY'],
      protocols: [],
    };
    config.providers.scopes.backend.providers.openai = {
      providerCapabilities: ['IMAGE_GENERATION'],
      protocols: ['IMAGE_PROVIDER'],
    };
    expect(problemsOf(config)).toEqual([]);
  });
});

describe('Agent Client Protocol configuration', () => {
  it("accepts the guide's companion coding-agent setup", () => {
    expect(problemsOf(companionCodingAgent())).toEqual([]);
  });

  it('requires execution profiles for a provider declaring AGENT_CLIENT_PROTOCOL', () => {
    const config = companionCodingAgent();
    delete config.providerConfigurations;
    expect(problemsOf(config)).toEqual([
      'providers.scopes.companion.providers.anthropic.protocols[0]: AGENT_CLIENT_PROTOCOL needs an execution profile; declare providerConfigurations.anthropic.agent_client_protocol.executionProfiles',
    ]);
  });

  it('refuses a default profile ref that names no profile', () => {
    const config = companionCodingAgent();
    config.providerConfigurations.anthropic.agent_client_protocol.defaultExecutionProfileRef = 'codex-acp';
    expect(problemsOf(config)).toEqual([
      'providerConfigurations.anthropic.agent_client_protocol.defaultExecutionProfileRef: "codex-acp" is not one of executionProfiles (claude-code-acp); fix the ref or add that profile',
    ]);
  });

  it('refuses protocol settings for a provider that does not speak the protocol', () => {
    const config = companionCodingAgent();
    config.providerConfigurations.openai = config.providerConfigurations.anthropic;
    expect(problemsOf(config)).toEqual([
      'providerConfigurations.openai.agent_client_protocol: openai does not speak AGENT_CLIENT_PROTOCOL; remove these settings',
    ]);
  });

  it('applies the profile defaults', () => {
    const config = companionCodingAgent();
    const profile = config.providerConfigurations.anthropic.agent_client_protocol.executionProfiles['claude-code-acp'];
    delete profile.turnTimeoutMs;
    delete profile.maxAutoContinuations;
    delete profile.awaitingInputTtlMs;
    expect(problemsOf(config)).toEqual([]);
  });
});
