import type { EngineCapability } from '../models/engine-capability.js';
import type { BuiltInProviderCatalog, ProviderCatalogType, ProviderCatalogTypeEntry } from './provider-catalog.js';
import type { SaaSProvidersInput } from './providers.schema.js';

/** A provider declaration whose capability and protocol strings are limited to what its catalogue entry serves. */
export interface TypedProviderDeclaration<Entry extends ProviderCatalogTypeEntry> {
  engineCapabilities?: readonly Extract<EngineCapability, Entry['engineCapabilities']>[];
  providerCapabilities?: readonly Entry['providerCapabilities'][];
  protocols?: readonly Entry['protocols'][];
}

/** A selection whose providers are names from the catalogue (the engine checks they are declared in the scope). */
export interface TypedProviderSelection<Catalog extends ProviderCatalogType> {
  primary: keyof Catalog & string;
  whenUnavailable?: readonly (keyof Catalog & string)[];
}

/** One runtime scope typed against a provider catalogue. */
export interface TypedProviderScope<Catalog extends ProviderCatalogType> {
  providers?: { [Name in keyof Catalog]?: TypedProviderDeclaration<Catalog[Name]> };
  selection?: { [Capability in EngineCapability]?: TypedProviderSelection<Catalog> };
}

/** The argument of {@link defineSaaSProviders}: provider declarations per runtime scope. */
export interface TypedSaaSProviders<Catalog extends ProviderCatalogType> {
  scopes: {
    backend?: TypedProviderScope<Catalog>;
    companion?: TypedProviderScope<Catalog>;
    frontend?: TypedProviderScope<Catalog>;
  };
}

/**
 * Declares the providers of each runtime scope. The type parameter, normally the generated
 * `WildoDiscoveredProviderCatalog`, makes an unknown provider name or a capability or protocol that
 * provider cannot serve a compile error; `wildo config sync` checks the same rules at run time.
 *
 * @example
 * providers: defineSaaSProviders<WildoDiscoveredProviderCatalog>({
 *   scopes: { backend: { providers: { anthropic: { engineCapabilities: [EngineCapability.AI_LLM],
 *     providerCapabilities: ['LLM_CHAT'], protocols: ['LLM_PROVIDER'] } },
 *     selection: { [EngineCapability.AI_LLM]: { primary: 'anthropic', whenUnavailable: [] } } } },
 * }),
 */
export function defineSaaSProviders<Catalog extends ProviderCatalogType = BuiltInProviderCatalog>(
  providers: TypedSaaSProviders<Catalog>,
): SaaSProvidersInput {
  // The typed form only narrows strings and uses readonly arrays; the value is the schema's input as is.
  return providers as unknown as SaaSProvidersInput;
}
