import { describe, expect, it } from 'vitest';
import { baseConfig, problemPathsOf, problemsOf } from './config.test-helpers.js';
import { validateSaaSConfig } from './validate-saas-config.js';

describe('SaaSConfigSchema structure and defaults', () => {
  it('applies every documented default to a minimal configuration', () => {
    const result = validateSaaSConfig({ application: { name: 'Minimal' } });
    expect(result.ok && result.config).toEqual({
      application: { name: 'Minimal', environment: 'DEVELOPMENT' },
      engineCapabilities: {},
      providers: { scopes: {} },
      providerConfigurations: {},
      auth: {
        dynamicClientRegistration: { enabled: false, maxRegistrationsPerHourPerIp: 10 },
        cimd: { policy: 'DISABLED', allowedClients: [] },
        consentGrantLifetimeDays: 180,
        accessTokenLifetimeMinutes: 15,
      },
      runtime: { endPoints: {} },
      frontendServices: {},
      observability: { llmObservability: { captureContent: false, sampleRate: 1 } },
      products: [],
    });
  });

  it('accepts the guide-shaped configuration', () => {
    expect(problemsOf(baseConfig())).toEqual([]);
  });

  it('requires the application name', () => {
    expect(problemPathsOf({ application: {} })).toEqual(['application.name']);
  });

  it('reports an unknown key at its own path', () => {
    expect(problemsOf({ ...baseConfig(), observabilty: {} })).toEqual([
      'observabilty: unknown key; remove it or check its spelling',
    ]);
  });

  it('reports an unknown engine capability as an unknown key', () => {
    const config = baseConfig();
    config.engineCapabilities.AI_VIDEO = { enabled: true };
    expect(problemPathsOf(config)).toEqual(['engineCapabilities.AI_VIDEO']);
  });

  it('rejects an environment outside APPLICATION_ENVIRONMENT', () => {
    expect(problemPathsOf({ application: { name: 'x', environment: 'QA' } })).toEqual(['application.environment']);
  });

  it('rejects a sample rate outside 0..1', () => {
    const config = { ...baseConfig(), observability: { llmObservability: { sampleRate: 1.5 } } };
    expect(problemPathsOf(config)).toEqual(['observability.llmObservability.sampleRate']);
  });

  it('runs cross-section rules only once the structure is sound', () => {
    const config = baseConfig();
    config.providers.scopes.backend.selection.AI_LLM.primary = 'openai';
    config.auth = { consentGrantLifetimeDays: 0 };
    expect(problemPathsOf(config)).toEqual(['auth.consentGrantLifetimeDays']);
  });
});
