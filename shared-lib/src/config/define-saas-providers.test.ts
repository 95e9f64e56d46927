import { describe, expect, it } from 'vitest';
import { EngineCapability } from '../models/engine-capability.js';
import { defineSaaSConfig } from './define-saas-config.js';
import { defineSaaSProviders } from './define-saas-providers.js';
import type { BuiltInProviderCatalog } from './provider-catalog.js';
import { validateSaaSConfig } from './validate-saas-config.js';

describe('defineSaaSProviders', () => {
  it('returns its argument unchanged, and the result validates inside defineSaaSConfig', () => {
    const declared = {
      scopes: {
        backend: {
          providers: {
            anthropic: {
              engineCapabilities: [EngineCapability.AI_LLM],
              providerCapabilities: ['LLM_CHAT'],
              protocols: ['LLM_PROVIDER'],
            },
          },
          selection: { [EngineCapability.AI_LLM]: { primary: 'anthropic', whenUnavailable: [] } },
        },
      },
    } as const;
    const providers = defineSaaSProviders<BuiltInProviderCatalog>(declared);
    expect(providers).toBe(declared);
    const config = defineSaaSConfig({
      application: { name: 'Typed' },
      engineCapabilities: { [EngineCapability.AI_LLM]: { enabled: true } },
      providers,
    });
    expect(validateSaaSConfig(config).ok).toBe(true);
  });

  it('rejects, at compile time, names and strings the catalogue does not allow', () => {
    // Each directive fails `tsc` if its line stops being a type error; one case per call because
    // TypeScript skips excess-property checks in a literal that already has another error.
    const define = defineSaaSProviders<BuiltInProviderCatalog>;
    // @ts-expect-error an unknown provider name
    define({ scopes: { backend: { providers: { mistral: {} } } } });
    const embeddings = EngineCapability.AI_EMBEDDINGS;
    // @ts-expect-error anthropic does not serve AI_EMBEDDINGS
    define({ scopes: { backend: { providers: { anthropic: { engineCapabilities: [embeddings] } } } } });
    // @ts-expect-error anthropic does not serve LLM_EMBEDDINGS
    define({ scopes: { backend: { providers: { anthropic: { providerCapabilities: ['LLM_EMBEDDINGS'] } } } } });
    // @ts-expect-error anthropic does not speak IMAGE_PROVIDER
    define({ scopes: { backend: { providers: { anthropic: { protocols: ['IMAGE_PROVIDER'] } } } } });
    // @ts-expect-error posthog speaks no protocol at all
    define({ scopes: { backend: { providers: { posthog: { protocols: ['LLM_PROVIDER'] } } } } });
    // @ts-expect-error a selection must name a catalogue provider
    define({ scopes: { backend: { selection: { [EngineCapability.AI_LLM]: { primary: 'mistral' } } } } });
    // @ts-expect-error an unknown runtime scope
    define({ scopes: { worker: {} } });
    expect(true).toBe(true);
  });
});
