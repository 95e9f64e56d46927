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
