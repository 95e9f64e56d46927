import type { ProviderAdapterOptions } from './llm-provider.types.js';
import { toProviderError, type SdkErrorClasses } from './provider-errors.js';

/** The client options both vendors' SDKs (Stainless-generated) take, from the adapter's options. */
export interface SdkClientOptions {
  apiKey: string;
  baseURL: string;
  timeout?: number;
  maxRetries?: number;
  fetch?: typeof fetch;
}

/**
 * An SDK client's options: the adapter's credential and base URL (the vendor's API by default), and the
 * timeout, retries and `fetch` only when the adapter sets them (otherwise the SDK's defaults apply).
 */
export function sdkClientOptions(options: ProviderAdapterOptions, defaultBaseURL: string): SdkClientOptions {
  return {
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? defaultBaseURL,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
}

/** The per-request options of an SDK call: the caller's signal, when there is one. */
export function sdkRequestOptions(signal: AbortSignal | undefined): { signal: AbortSignal } | undefined {
  return signal ? { signal } : undefined;
}

/**
 * One non-streaming SDK request with the caller's signal; what it throws is what the adapter throws
 * ({@link toProviderError}: the abort reason, or a classified `ProviderCallError`).
 */
export async function callSdk<T>(
  providerRef: string,
  sdk: SdkErrorClasses,
  signal: AbortSignal | undefined,
  request: (options: { signal: AbortSignal } | undefined) => PromiseLike<T>,
): Promise<T> {
  try {
    return await request(sdkRequestOptions(signal));
  } catch (error) {
    throw toProviderError(providerRef, error, sdk, signal);
  }
}

/** An SDK client with the SDK's error classes (what {@link toProviderError} classifies by). */
export interface SdkBinding<TClient> {
  client: TClient;
  errors: SdkErrorClasses;
}

/**
 * Builds the SDK binding on first use and reuses it: the vendor SDKs are loaded by the first call, not by importing
 * the engine (they are hundreds of modules, which every `wildo` command and every start would otherwise load).
 */
export function lazySdk<TClient>(load: () => Promise<SdkBinding<TClient>>): () => Promise<SdkBinding<TClient>> {
  let pending: Promise<SdkBinding<TClient>> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      // A failed load is retried by the next call rather than remembered.
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
