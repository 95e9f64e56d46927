import type { EngineCapability, ProviderScopeName } from '@wildo/shared-lib';
import { resolveProviderAvailability, type RuntimeConfiguration, type RuntimeScope } from '../../config/index.js';
import { AnthropicAdapter } from './anthropic.adapter.js';
import {
  ConcurrencyLimiter,
  DEFAULT_PROVIDER_MAX_CONCURRENCY,
  withConcurrencyLimit,
  type ConcurrencyLimiterStats,
} from './concurrency-limiter.js';
import { ProviderCallError, type LLMProviderAdapter, type ProviderAdapterOptions } from './llm-provider.types.js';
import { OpenAIAdapter } from './openai.adapter.js';

/** Builds one vendor's adapter. */
export type ProviderAdapterFactory = (options: ProviderAdapterOptions & { ref: string }) => LLMProviderAdapter;

/** The adapters the framework ships, by provider ref. */
export const BUILT_IN_ADAPTER_FACTORIES: Readonly<Record<string, ProviderAdapterFactory>> = {
  anthropic: (options) => new AnthropicAdapter(options),
  openai: (options) => new OpenAIAdapter(options),
};

/** The environment variable that overrides a provider's base URL (stubs, proxies): `ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`. */
export function baseUrlEnvVar(providerRef: string): string {
  return `${providerRef.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`;
}

/** How the registry is built. */
export interface ProviderRegistryOptions {
  /** The generated runtime configuration (`.wildo-saas/generated/runtime.json`). */
  runtime: RuntimeConfiguration;
  /** The runtime scope whose providers are built (default `backend`). */
  scope?: ProviderScopeName;
  /** Where credentials and base URL overrides are read (default `process.env`); read once, at construction. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Calls one provider may have in flight (default {@link DEFAULT_PROVIDER_MAX_CONCURRENCY}); more wait in FIFO order. */
  maxConcurrency?: number;
  /** Per-provider overrides of `maxConcurrency`. */
  maxConcurrencyByProvider?: Readonly<Record<string, number>>;
  /** Per HTTP attempt, passed to the SDKs. */
  timeoutMs?: number;
  /** The SDKs' own retries against the same vendor (default: the SDKs' 2). */
  maxRetries?: number;
  /** Adapters by provider ref (default {@link BUILT_IN_ADAPTER_FACTORIES}). */
  adapterFactories?: Readonly<Record<string, ProviderAdapterFactory>>;
  /** A `fetch` for every adapter (tests, outbound guards). */
  fetch?: typeof fetch;
}

/** Why a provider has no adapter in this scope. */
export type ProviderUnavailableReason =
  | 'not_declared'
  | 'no_adapter'
  | 'capability_disabled'
  | 'missing_credential'
  | 'invalid_base_url';

/** Whether a provider can be called, or why not (with the fix in `message`). Credential values never appear. */
export type ProviderStatus =
  | { ref: string; available: true; credentialEnvVar: string; baseURL?: string }
  | { ref: string; available: false; reason: ProviderUnavailableReason; message: string; credentialEnvVar?: string };

/** The provider selected for an engine capability, or why none is. */
export type CapabilitySelection =
  | { available: true; capability: EngineCapability; ref: string; isPrimary: boolean; adapter: LLMProviderAdapter }
  | {
      available: false;
      capability: EngineCapability;
      reason: 'capability_disabled' | 'not_selected' | 'missing_credentials' | ProviderUnavailableReason;
      message: string;
      missingCredentialEnvVars?: string[];
    };

interface Entry {
  status: ProviderStatus;
  /** What builds the adapter, present exactly when the status is available. */
  connect?: { factory: ProviderAdapterFactory; apiKey: string };
  limiter?: ConcurrencyLimiter;
  adapter?: LLMProviderAdapter;
}

/**
 * The LLM provider adapters of one runtime scope, built from the generated runtime configuration and the
 * environment: a declared provider with a shipped adapter and its credential set is available; any other
 * is reported with the reason and the fix. Every adapter it hands out runs its calls through that
 * provider's concurrency limiter. It never switches vendor: `get(ref)` is that provider or an error.
 *
 * @example
 * const providers = new ProviderRegistry({ runtime, env: process.env });
 * if (!providers.isAvailable('anthropic')) logger.warn(providers.status('anthropic'));
 * for await (const event of providers.get('anthropic').streamChat!(request)) { ... }
 */
export class ProviderRegistry {
  readonly scope: ProviderScopeName;
  readonly #runtime: RuntimeConfiguration;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #options: ProviderRegistryOptions;
  readonly #factories: Readonly<Record<string, ProviderAdapterFactory>>;
  readonly #entries = new Map<string, Entry>();

  constructor(options: ProviderRegistryOptions) {
    this.#options = options;
    this.#runtime = options.runtime;
    this.scope = options.scope ?? 'backend';
    this.#env = { ...(options.env ?? process.env) };
    this.#factories = options.adapterFactories ?? BUILT_IN_ADAPTER_FACTORIES;
    const declarations = this.#runtime.providers.scopes[this.scope].providers;
    for (const [ref, declaration] of Object.entries(declarations).sort(([a], [b]) => (a < b ? -1 : 1))) {
      this.#entries.set(ref, this.#evaluate(ref, declaration));
    }
  }

  /** The providers declared in the scope, with their status. */
  list(): ProviderStatus[] {
    return [...this.#entries.values()].map((entry) => entry.status);
  }

  /** Whether `ref` can be called, or why not. */
  status(ref: string): ProviderStatus {
    return this.#entries.get(ref)?.status ?? this.#notDeclared(ref);
  }

  isAvailable(ref: string): boolean {
    return this.status(ref).available;
  }

  /**
   * The adapter of `ref`, behind its concurrency limiter (built on first use).
   *
   * @throws ProviderCallError `not_configured`, with the status message, when the provider is unavailable.
   */
  get(ref: string): LLMProviderAdapter {
    const entry = this.#entries.get(ref);
    const status = entry?.status ?? this.#notDeclared(ref);
    if (!entry?.connect || !status.available) {
      throw new ProviderCallError(
        ref,
        'not_configured',
        status.available ? `Provider "${ref}" is not configured.` : status.message,
      );
    }
    if (!entry.adapter) {
      const { factory, apiKey } = entry.connect;
      const adapterOptions: ProviderAdapterOptions & { ref: string } = { ref, apiKey };
      if (status.baseURL !== undefined) adapterOptions.baseURL = status.baseURL;
      if (this.#options.timeoutMs !== undefined) adapterOptions.timeoutMs = this.#options.timeoutMs;
      if (this.#options.maxRetries !== undefined) adapterOptions.maxRetries = this.#options.maxRetries;
      if (this.#options.fetch) adapterOptions.fetch = this.#options.fetch;
      entry.limiter = new ConcurrencyLimiter(
        this.#options.maxConcurrencyByProvider?.[ref] ??
          this.#options.maxConcurrency ??
          DEFAULT_PROVIDER_MAX_CONCURRENCY,
      );
      entry.adapter = withConcurrencyLimit(factory(adapterOptions), entry.limiter);
    }
    return entry.adapter;
  }

  /** In-flight and queued calls of a provider whose adapter was built (undefined before first use). */
  limiterStats(ref: string): ConcurrencyLimiterStats | undefined {
    return this.#entries.get(ref)?.limiter?.stats();
  }

  /**
   * The provider the scope's selection picks for an engine capability (the first candidate whose credential is
   * set, as `resolveProviderAvailability` decides), with its adapter. This is a configuration-time choice for
   * callers without a pinned provider (embeddings); it is not failover after a failed call.
   */
  selectForCapability(capability: EngineCapability): CapabilitySelection {
    const availability = resolveProviderAvailability(this.#runtime, this.scope, capability, this.#env);
    if (!availability.available) {
      if (availability.reason === 'capability_disabled') {
        return {
          available: false,
          capability,
          reason: 'capability_disabled',
          message: `Engine capability ${capability} is not enabled; set engineCapabilities.${capability}.enabled to true in wildo.saas.config.ts and run "wildo config sync".`,
        };
      }
      if (availability.reason !== 'missing_credentials') {
        return {
          available: false,
          capability,
          reason: 'not_selected',
          message: `No provider is selected for ${capability} in the ${this.scope} scope; add providers.scopes.${this.scope}.selection.${capability} in wildo.saas.config.ts and run "wildo config sync".`,
        };
      }
      const variables = availability.missingCredentialEnvVars;
      return {
        available: false,
        capability,
        reason: 'missing_credentials',
        message: `No provider selected for ${capability} in the ${this.scope} scope has its credential: set ${variables.join(' or ')} in the environment.`,
        missingCredentialEnvVars: variables,
      };
    }
    const status = this.status(availability.provider);
    if (!status.available) return { available: false, capability, reason: status.reason, message: status.message };
    return {
      available: true,
      capability,
      ref: availability.provider,
      isPrimary: availability.isPrimary,
      adapter: this.get(availability.provider),
    };
  }

  #notDeclared(ref: string): ProviderStatus {
    return {
      ref,
      available: false,
      reason: 'not_declared',
      message: `Provider "${ref}" is not declared in the ${this.scope} scope of the runtime configuration; declare it under providers.scopes.${this.scope}.providers in wildo.saas.config.ts and run "wildo config sync".`,
    };
  }

  /** The provider's status, and what builds its adapter when it is available. */
  #evaluate(ref: string, declaration: RuntimeScope['providers'][string]): Entry {
    const credentialEnvVar = declaration.credentialEnvVar;
    const factory = Object.hasOwn(this.#factories, ref) ? this.#factories[ref] : undefined;
    if (!factory) {
      const message = `Provider "${ref}" has no model adapter (adapters exist for ${Object.keys(this.#factories)
        .sort()
        .map((name) => `"${name}"`)
        .join(', ')}); it cannot serve agent or embeddings calls.`;
      return { status: { ref, available: false, reason: 'no_adapter', credentialEnvVar, message } };
    }
    const declared = declaration.engineCapabilities;
    if (declared.length > 0 && !declared.some((capability) => this.#runtime.engineCapabilities[capability]?.enabled)) {
      const message = `Provider "${ref}" is declared for ${declared.join(', ')} in the ${this.scope} scope, and none of these engine capabilities is enabled; enable one under engineCapabilities in wildo.saas.config.ts and run "wildo config sync".`;
      return { status: { ref, available: false, reason: 'capability_disabled', credentialEnvVar, message } };
    }
    const apiKey = this.#env[credentialEnvVar];
    if (apiKey === undefined || apiKey.trim() === '') {
      const message = `Provider "${ref}" is declared in the ${this.scope} scope but its credential is missing: set ${credentialEnvVar} in the environment.`;
      return { status: { ref, available: false, reason: 'missing_credential', credentialEnvVar, message } };
    }
    const connect = { factory, apiKey };
    const baseUrlVar = baseUrlEnvVar(ref);
    const baseURL = this.#env[baseUrlVar]?.trim();
    if (baseURL) {
      if (!URL.canParse(baseURL) || !/^https?:$/.test(new URL(baseURL).protocol)) {
        const message = `Provider "${ref}": ${baseUrlVar} is not an http(s) URL; correct it or unset it to reach the vendor's API.`;
        return { status: { ref, available: false, reason: 'invalid_base_url', credentialEnvVar, message } };
      }
      return { status: { ref, available: true, credentialEnvVar, baseURL }, connect };
    }
    return { status: { ref, available: true, credentialEnvVar }, connect };
  }
}
