import { EngineCapability, validateSaaSConfig } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { validConfigFixture } from './config.fixtures.js';
import { resolveProviderAvailability } from './provider-availability.js';
import { buildRuntimeConfiguration } from './runtime-configuration.build.js';

function runtime() {
  const fixture = validConfigFixture();
  fixture.providers.scopes.backend!.providers.openai = {
    engineCapabilities: ['AI_LLM'],
    providerCapabilities: ['LLM_CHAT'],
    protocols: ['LLM_PROVIDER'],
  };
  fixture.providers.scopes.backend!.selection.AI_LLM = { primary: 'anthropic', whenUnavailable: ['openai'] };
  const result = validateSaaSConfig(fixture);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return buildRuntimeConfiguration(result.config);
}

describe('resolveProviderAvailability', () => {
  it('picks the primary when its credential is set', () => {
    const availability = resolveProviderAvailability(runtime(), 'backend', EngineCapability.AI_LLM, {
      ANTHROPIC_API_KEY: 'x',
    });
    expect(availability).toEqual({
      available: true,
      provider: 'anthropic',
      credentialEnvVar: 'ANTHROPIC_API_KEY',
      isPrimary: true,
    });
  });

  it('falls back to the next candidate whose credential is set', () => {
    const availability = resolveProviderAvailability(runtime(), 'backend', EngineCapability.AI_LLM, {
      OPENAI_API_KEY: 'x',
    });
    expect(availability).toMatchObject({ available: true, provider: 'openai', isPrimary: false });
  });

  it('reports absence with the variable names to set when no credential is present', () => {
    const availability = resolveProviderAvailability(runtime(), 'backend', EngineCapability.AI_LLM, {
      ANTHROPIC_API_KEY: '',
    });
    expect(availability).toEqual({
      available: false,
      reason: 'missing_credentials',
      missingCredentialEnvVars: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'],
    });
  });

  it('reports a capability that is not enabled', () => {
    const availability = resolveProviderAvailability(runtime(), 'backend', EngineCapability.AI_EMBEDDINGS, {});
    expect(availability).toEqual({ available: false, reason: 'capability_disabled' });
  });

  it('reports a scope without a selection for an enabled capability', () => {
    const availability = resolveProviderAvailability(runtime(), 'companion', EngineCapability.AI_LLM, {});
    expect(availability).toEqual({ available: false, reason: 'not_selected' });
  });
});
