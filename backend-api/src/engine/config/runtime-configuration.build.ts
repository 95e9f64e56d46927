import {
  BUILT_IN_PROVIDER_CATALOG,
  EngineCapability,
  findCatalogProvider,
  PROVIDER_SCOPES,
  type FrontendService,
  type ProviderScope,
  type SaaSConfig,
} from '@wildo/shared-lib';
import { hashCanonical } from './canonical-json.js';
import { GENERATION_FORMAT_VERSION } from './config.constants.js';
import type { RuntimeConfiguration, RuntimeProviderRef, RuntimeScope } from './runtime-configuration.schema.js';

/** The credential variable of a catalogue provider; validation guarantees the provider exists. */
function providerRef(provider: string): RuntimeProviderRef {
  const entry = findCatalogProvider(provider);
  if (!entry) throw new Error(`Provider "${provider}" passed validation but is missing from the catalogue.`);
  return { provider, credentialEnvVar: entry.credentialEnvVar };
}

function buildScope(scope: ProviderScope | undefined): RuntimeScope {
  const runtimeScope: RuntimeScope = { providers: {}, selection: {} };
  if (!scope) return runtimeScope;
  for (const [name, declaration] of Object.entries(scope.providers)) {
    runtimeScope.providers[name] = { ...declaration, credentialEnvVar: providerRef(name).credentialEnvVar };
  }
  for (const capability of Object.values(EngineCapability)) {
    const selection = scope.selection[capability];
    if (!selection) continue;
    const candidates = [selection.primary, ...selection.whenUnavailable].map(providerRef);
    runtimeScope.selection[capability] = { ...selection, candidates };
  }
  return runtimeScope;
}

/** The service links point to: the one marked `isDefault`, else the only one, else none. */
function defaultFrontendServiceOf(services: Record<string, FrontendService>): string | null {
  const names = Object.keys(services).sort();
  const marked = names.find((name) => services[name]?.isDefault);
  if (marked) return marked;
  return names.length === 1 ? (names[0] ?? null) : null;
}

/**
 * Derives the runtime configuration from a validated configuration: every capability and scope
 * spelled out, selections expanded with credential variables, and the hash of the inputs.
 */
export function buildRuntimeConfiguration(config: SaaSConfig): RuntimeConfiguration {
  const engineCapabilities = Object.fromEntries(
    Object.values(EngineCapability).map((capability) => [
      capability,
      { enabled: config.engineCapabilities[capability]?.enabled === true },
    ]),
  ) as RuntimeConfiguration['engineCapabilities'];
  const scopes = Object.fromEntries(
    PROVIDER_SCOPES.map((name) => [name, buildScope(config.providers.scopes[name])]),
  ) as RuntimeConfiguration['providers']['scopes'];
  return {
    formatVersion: GENERATION_FORMAT_VERSION,
    // Hashing the resolved values (not the file's text) ignores formatting and key order.
    inputsHash: hashCanonical({ formatVersion: GENERATION_FORMAT_VERSION, config, catalog: BUILT_IN_PROVIDER_CATALOG }),
    application: config.application,
    engineCapabilities,
    providers: { scopes },
    providerConfigurations: config.providerConfigurations,
    auth: config.auth,
    runtime: config.runtime,
    frontendServices: config.frontendServices,
    defaultFrontendService: defaultFrontendServiceOf(config.frontendServices),
    observability: config.observability,
    products: config.products,
  };
}
