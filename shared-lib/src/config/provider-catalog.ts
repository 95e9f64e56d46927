import { EngineCapability } from '../models/engine-capability.js';
import { ExternalProvider_ExchangeProtocol_Kind } from './external-provider.models.js';

/** What a provider can do, in the vocabulary of `providers.*.providerCapabilities`. */
export const PROVIDER_CAPABILITIES = [
  'LLM_CHAT',
  'LLM_EMBEDDINGS',
  'IMAGE_GENERATION',
  'CODING_AGENT',
  'LLM_OBSERVABILITY',
] as const;

/** One of {@link PROVIDER_CAPABILITIES}. */
export type ProviderCapability = (typeof PROVIDER_CAPABILITIES)[number];

/** A protocol name as written in `providers.*.protocols`: a key of {@link ExternalProvider_ExchangeProtocol_Kind}. */
export type ProviderProtocolName = keyof typeof ExternalProvider_ExchangeProtocol_Kind;

/** One thing a vendor can serve: a provider capability, the engine capability it backs (if any) and its protocol. */
export interface ProviderCatalogOffering {
  readonly providerCapability: ProviderCapability;
  /** `null` when no engine capability switch governs it (image generation is enabled per agent). */
  readonly engineCapability: EngineCapability | null;
  /** `null` when the provider has no request/response exchange (an observability trace sink). */
  readonly protocol: ProviderProtocolName | null;
}

/** What the framework knows about one vendor. Credentials are named, never stored. */
export interface ProviderCatalogEntry {
  readonly displayName: string;
  /** The environment variable that must hold the provider's credential for it to be available. */
  readonly credentialEnvVar: string;
  readonly offerings: readonly ProviderCatalogOffering[];
}

/**
 * The vendors the framework ships adapters for, and what each adapter can serve. Declarations in
 * `wildo.saas.config.ts` are checked against it; `wildo config sync` renders it as a type.
 */
export const BUILT_IN_PROVIDER_CATALOG = {
  anthropic: {
    displayName: 'Anthropic',
    credentialEnvVar: 'ANTHROPIC_API_KEY',
    offerings: [
      { providerCapability: 'LLM_CHAT', engineCapability: EngineCapability.AI_LLM, protocol: 'LLM_PROVIDER' },
      {
        providerCapability: 'CODING_AGENT',
        engineCapability: EngineCapability.AI_CODING_AGENT,
        protocol: 'AGENT_CLIENT_PROTOCOL',
      },
    ],
  },
  openai: {
    displayName: 'OpenAI',
    credentialEnvVar: 'OPENAI_API_KEY',
    offerings: [
      { providerCapability: 'LLM_CHAT', engineCapability: EngineCapability.AI_LLM, protocol: 'LLM_PROVIDER' },
      {
        providerCapability: 'LLM_EMBEDDINGS',
        engineCapability: EngineCapability.AI_EMBEDDINGS,
        protocol: 'EMBEDDINGS_PROVIDER',
      },
      { providerCapability: 'IMAGE_GENERATION', engineCapability: null, protocol: 'IMAGE_PROVIDER' },
    ],
  },
  posthog: {
    displayName: 'PostHog',
    credentialEnvVar: 'POSTHOG_PROJECT_API_KEY',
    offerings: [
      { providerCapability: 'LLM_OBSERVABILITY', engineCapability: EngineCapability.LLM_OBSERVABILITY, protocol: null },
    ],
  },
} as const satisfies Record<string, ProviderCatalogEntry>;

/** The name of a built-in provider. */
export type BuiltInProviderName = keyof typeof BUILT_IN_PROVIDER_CATALOG;

/** The type-level summary of one catalogue entry: the strings a declaration of that provider may use. */
export interface ProviderCatalogTypeEntry {
  engineCapabilities: string;
  providerCapabilities: string;
  protocols: string;
  credentialEnvVar: string;
}

/** The shape a provider catalogue type (such as the generated `WildoDiscoveredProviderCatalog`) must have. */
export type ProviderCatalogType = Record<string, ProviderCatalogTypeEntry>;

type OfferingOf<Entry extends ProviderCatalogEntry> = Entry['offerings'][number];

/** The built-in catalogue as a type; the generated `WildoDiscoveredProviderCatalog` has the same shape. */
export type BuiltInProviderCatalog = {
  [Name in BuiltInProviderName]: {
    engineCapabilities: `${NonNullable<OfferingOf<(typeof BUILT_IN_PROVIDER_CATALOG)[Name]>['engineCapability']>}`;
    providerCapabilities: OfferingOf<(typeof BUILT_IN_PROVIDER_CATALOG)[Name]>['providerCapability'];
    protocols: NonNullable<OfferingOf<(typeof BUILT_IN_PROVIDER_CATALOG)[Name]>['protocol']>;
    credentialEnvVar: (typeof BUILT_IN_PROVIDER_CATALOG)[Name]['credentialEnvVar'];
  };
};

/**
 * Types `wildo config sync` generates for the application, registered by module augmentation in
 * `.wildo-saas/generated/provider-catalog.types.ts` (`providerCatalog: WildoDiscoveredProviderCatalog`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the generated file
export interface WildoGeneratedTypes {}

/** The application's provider catalogue: the generated `WildoDiscoveredProviderCatalog`, or the built-in one before generation. */
export type RegisteredProviderCatalog = WildoGeneratedTypes extends {
  providerCatalog: infer C extends ProviderCatalogType;
}
  ? C
  : BuiltInProviderCatalog;

/** Providers of the application's catalogue that offer `capability`. */
export type CatalogProviderOffering<
  TCapability extends ProviderCapability,
  TCatalog extends ProviderCatalogType = RegisteredProviderCatalog,
> = {
  [Name in keyof TCatalog]: TCapability extends TCatalog[Name]['providerCapabilities'] ? Name : never;
}[keyof TCatalog] &
  string;

/** Looks a provider up in the built-in catalogue; `undefined` for a name the framework does not know. */
export function findCatalogProvider(name: string): ProviderCatalogEntry | undefined {
  return Object.hasOwn(BUILT_IN_PROVIDER_CATALOG, name)
    ? (BUILT_IN_PROVIDER_CATALOG as Record<string, ProviderCatalogEntry>)[name]
    : undefined;
}

/** The names of the built-in providers, sorted. */
export function listCatalogProviderNames(): string[] {
  return Object.keys(BUILT_IN_PROVIDER_CATALOG).sort();
}
