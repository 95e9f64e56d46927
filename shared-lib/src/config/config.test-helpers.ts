// Test helpers: a minimal valid configuration and a shortcut from input to reported problems.
import { validateSaaSConfig } from './validate-saas-config.js';

/** A small valid configuration in plain data; each call returns a fresh copy. */
export function baseConfig(): Record<string, any> {
  return {
    application: { name: 'Test App' },
    engineCapabilities: { AI_LLM: { enabled: true } },
    providers: {
      scopes: {
        backend: {
          providers: {
            anthropic: {
              engineCapabilities: ['AI_LLM'],
              providerCapabilities: ['LLM_CHAT'],
              protocols: ['LLM_PROVIDER'],
            },
          },
          selection: { AI_LLM: { primary: 'anthropic', whenUnavailable: [] } },
        },
      },
    },
  };
}

/** The `path: message` lines a configuration produces (empty when it is valid). */
export function problemsOf(config: unknown): string[] {
  const result = validateSaaSConfig(config);
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
}

/** The problem paths a configuration produces. */
export function problemPathsOf(config: unknown): string[] {
  const result = validateSaaSConfig(config);
  return result.ok ? [] : result.problems.map((p) => p.path);
}

/** The guide's companion coding-agent setup: AI_CODING_AGENT on, anthropic in the companion scope, its profile. */
export function companionCodingAgent(): Record<string, any> {
  const config = baseConfig();
  config.engineCapabilities.AI_CODING_AGENT = { enabled: true };
  config.providers.scopes.companion = {
    providers: {
      anthropic: {
        engineCapabilities: ['AI_CODING_AGENT'],
        providerCapabilities: ['CODING_AGENT'],
        protocols: ['AGENT_CLIENT_PROTOCOL'],
      },
    },
  };
  config.providerConfigurations = {
    anthropic: {
      agent_client_protocol: {
        defaultExecutionProfileRef: 'claude-code-acp',
        executionProfiles: {
          'claude-code-acp': {
            runnerHost: 'BACKEND_SUBPROCESS',
            authMode: 'HOST_MANAGED',
            allowedApplicationEnvironments: ['DEVELOPMENT'],
            workingDirectoryPolicy: 'WORKSPACE_ROOT',
            permissionCeiling: 'UNRESTRICTED',
            hostConfigurationInheritance: 'APPLICATION_SCOPED',
            turnTimeoutMs: 30 * 60_000,
            maxAutoContinuations: 12,
            awaitingInputTtlMs: 30 * 60_000,
          },
        },
      },
    },
  };
  return config;
}
