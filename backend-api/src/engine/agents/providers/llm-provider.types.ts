import type { AgentCallUsage } from '@wildo/shared-lib';

/** A tool the model may call, described for the provider. */
export interface ProviderToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's arguments (an object schema). */
  inputSchema: Record<string, unknown>;
}

/** A tool call the model asked for. */
export interface ProviderToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One message of a provider-neutral conversation. */
export type ProviderMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: readonly ProviderToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

/** Why a generation stopped, in provider-neutral terms. */
export type ProviderFinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/**
 * Settings common to language-model calls. `signal` aborts the call (queued or in flight); an aborted call
 * rejects with the signal's reason (an `AbortError`), never with a {@link ProviderCallError}.
 */
export interface ProviderCallSettings {
  /** The vendor's model id: `ResolvedModel.vendorModelId` from `resolveModel` (not the framework's enum value). */
  model: string;
  system?: string;
  maxOutputTokens?: number;
  temperature?: number;
  reasoningEffort?: 'low' | 'medium' | 'high';
  signal?: AbortSignal;
}

/** A streaming chat request. */
export interface ChatStreamRequest extends ProviderCallSettings {
  messages: readonly ProviderMessage[];
  tools?: readonly ProviderToolSpec[];
}

/** Events of a streaming chat completion, in order; exactly one `finish` ends it. */
export type ChatStreamEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'tool_call'; call: ProviderToolCall }
  | { type: 'finish'; finishReason: ProviderFinishReason; usage: AgentCallUsage };

/** A structured-output request: the answer must satisfy `jsonSchema`. */
export interface StructuredRequest extends ProviderCallSettings {
  prompt: string;
  schemaName: string;
  jsonSchema: Record<string, unknown>;
  /**
   * Whether the vendor must enforce the schema exactly (OpenAI `strict`). Default: true when the schema is
   * strict-compatible (every object closed and every property required), false otherwise.
   */
  strict?: boolean;
}

/** A structured answer (not yet validated against the Zod contract: the caller does that). */
export interface StructuredResult {
  object: unknown;
  finishReason: ProviderFinishReason;
  usage: AgentCallUsage;
}

/** An image request. */
export interface ImageRequest {
  model: string;
  prompt: string;
  size?: string;
  quality?: string;
  background?: string;
  outputFormat?: string;
  n?: number;
  signal?: AbortSignal;
}

/** Generated images, each with base64 bytes and a media type. */
export interface ImageResult {
  images: { base64: string; mediaType: string }[];
  usage?: AgentCallUsage;
}

/** An embeddings request. */
export interface EmbeddingsRequest {
  model: string;
  texts: readonly string[];
  /** `EmbeddingsProvider_TextPurpose`; vendors that encode both alike (OpenAI) ignore it. */
  purpose: 'QUERY' | 'CORPUS';
  /** Shortened vectors, for models that support it (OpenAI `text-embedding-3-*`). */
  dimensions?: number;
  signal?: AbortSignal;
}

/** Vectors, one per text, in order. */
export interface EmbeddingsResult {
  vectors: number[][];
  model: string;
  dims: number;
  usage: AgentCallUsage;
}

/**
 * A provider adapter on the vendor's official SDK. Methods a vendor does not offer are absent; callers check
 * the model catalogue at registration, so a missing method at run time is a programming error.
 */
export interface LLMProviderAdapter {
  readonly ref: string;
  streamChat?(request: ChatStreamRequest): AsyncIterable<ChatStreamEvent>;
  generateStructured?(request: StructuredRequest): Promise<StructuredResult>;
  generateImage?(request: ImageRequest): Promise<ImageResult>;
  embed?(request: EmbeddingsRequest): Promise<EmbeddingsResult>;
}

/** How an adapter is built: the credential and where the vendor (or a stub / proxy) is reached. */
export interface ProviderAdapterOptions {
  apiKey: string;
  /** The vendor's API by default; the environment is never read for it (the registry passes `*_BASE_URL`). */
  baseURL?: string;
  /** Per HTTP attempt (the SDK's `timeout`). */
  timeoutMs?: number;
  /** The SDK's own retries of connection failures, 408/409/429/5xx, against the same vendor (default 2). */
  maxRetries?: number;
  /** A `fetch` implementation (tests, outbound guards). */
  fetch?: typeof fetch;
}

/**
 * Why a provider call failed:
 * - `unavailable`: connection failure, timeout, 5xx, overload (retry later, same vendor);
 * - `rate_limited`: 429 (`retryAfterMs` when the vendor said);
 * - `refused`: the vendor refused the request or its content (4xx other than 401/429, refusal stop reasons);
 * - `invalid_response`: an answer that cannot be used (unparsable JSON, a stream that ended early);
 * - `not_configured`: no adapter (missing credential, undeclared provider) or a credential the vendor rejects (401).
 */
export type ProviderCallErrorKind = 'unavailable' | 'rate_limited' | 'refused' | 'invalid_response' | 'not_configured';

/** Failures of a provider call, classified so the runtime can tell a retryable outage from a refusal. */
export class ProviderCallError extends Error {
  override readonly name = 'ProviderCallError';
  /** The vendor's HTTP status, when there was one. */
  readonly status?: number;
  /** How long the vendor asked to wait (429 `retry-after`), in milliseconds. */
  readonly retryAfterMs?: number;
  constructor(
    readonly providerRef: string,
    readonly kind: ProviderCallErrorKind,
    message: string,
    options?: { cause?: unknown; status?: number; retryAfterMs?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.status !== undefined) this.status = options.status;
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
