import { createHash, randomUUID } from 'node:crypto';
import type { AgentCallTraceEmission } from '@wildo/shared-lib';
import type { Logger } from '../logging/index.js';
import { boundedTraceContent } from './trace-content.js';
import type { AgentTraceSink } from './trace-sink.js';

/** One event as the sink hands it to the PostHog client (`posthog-node`'s `capture` message). */
export interface PostHogTraceEvent {
  distinctId: string;
  event: '$ai_generation' | '$ai_embedding';
  properties: Record<string, unknown>;
  timestamp?: Date;
}

/**
 * The part of the `posthog-node` client the sink uses. A `PostHog` instance satisfies it; tests pass a fake
 * that records the events the sink built.
 */
export interface PostHogCaptureClient {
  capture(event: PostHogTraceEvent): void;
  flush(): Promise<void>;
  shutdown(shutdownTimeoutMs?: number): Promise<void>;
}

/** Trace attributes read, in order, for PostHog's `distinctId` (a person or organization id, never content). */
export const POSTHOG_DISTINCT_ID_ATTRIBUTES = ['distinctId', 'userId', 'organizationId'] as const;

/** The `distinctId` of calls whose trace names nobody (sent with `$process_person_profile: false`). */
export const POSTHOG_ANONYMOUS_DISTINCT_ID = 'wildo-backend-anonymous';

/** Options of {@link PostHogTraceSink}. */
export interface PostHogTraceSinkOptions {
  client: PostHogCaptureClient;
  logger: Logger;
  /** Share of calls sent, 0..1 (default 1). 0 sends nothing. Values outside are clamped. */
  sampleRate?: number;
  /** Send prompts and completions (`$ai_input`, `$ai_output_choices`); default false. Never embedding vectors. */
  captureContent?: boolean;
  /** Uniform in [0, 1); the sampling source for calls without a trace id (tests inject one). */
  random?: () => number;
  /** The `distinctId` when the trace names nobody; default {@link POSTHOG_ANONYMOUS_DISTINCT_ID}. */
  anonymousDistinctId?: string;
  /** Upper bound of `shutdown()` (default 5 s). */
  shutdownTimeoutMs?: number;
}

/** Whether a trace reports an embeddings call (its own PostHog event, without vectors). */
export function isEmbeddingTrace(trace: AgentCallTraceEmission): boolean {
  return (
    trace.context?.embeddingDims != null || trace.context?.embeddingCount != null || /EMBED/i.test(trace.operationKey)
  );
}

/**
 * Sends model calls to PostHog LLM analytics through `posthog-node`: generations as `$ai_generation` (model,
 * provider, tokens, latency, outcome, finish reason), embeddings as `$ai_embedding` (input count, dimensions,
 * tokens, latency; never vectors, even with `captureContent`).
 *
 * Sampling keeps a share of calls; calls with a trace id are kept or dropped together (a hash of the id decides),
 * so sampled traces stay whole. Content capture is off unless `captureContent` is on; then prompts and
 * completions are sent bounded (base64 payloads and vectors summarized). Delivery is best effort: the client
 * batches and retries; failures are logged, never thrown into the model call.
 */
export class PostHogTraceSink implements AgentTraceSink {
  readonly name = 'posthog';
  readonly sampleRate: number;
  readonly captureContent: boolean;
  private readonly client: PostHogCaptureClient;
  private readonly logger: Logger;
  private readonly random: () => number;
  private readonly anonymousDistinctId: string;
  private readonly shutdownTimeoutMs: number;
  private closed: Promise<void> | undefined;

  constructor(options: PostHogTraceSinkOptions) {
    this.client = options.client;
    this.logger = options.logger;
    this.sampleRate = clampRate(options.sampleRate ?? 1);
    this.captureContent = options.captureContent === true;
    this.random = options.random ?? Math.random;
    this.anonymousDistinctId = options.anonymousDistinctId ?? POSTHOG_ANONYMOUS_DISTINCT_ID;
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? 5_000;
  }

  emit(trace: AgentCallTraceEmission): void {
    if (this.closed) return;
    try {
      if (!this.isSampled(trace)) return;
      this.client.capture(this.buildEvent(trace));
    } catch (error) {
      this.logger.warn('the PostHog trace sink could not record a model call', {
        agentRef: trace.agentRef,
        error: describeError(error),
      });
    }
  }

  flush(): Promise<void> {
    return this.client.flush();
  }

  shutdown(): Promise<void> {
    this.closed ??= this.client.shutdown(this.shutdownTimeoutMs);
    return this.closed;
  }

  /** Whether this call is sent: always at 1, never at 0, else by trace-id hash or the random source. */
  isSampled(trace: AgentCallTraceEmission): boolean {
    if (this.sampleRate >= 1) return true;
    if (this.sampleRate <= 0) return false;
    const traceId = trace.traceContext?.traceId;
    return (traceId ? unitIntervalOf(traceId) : this.random()) < this.sampleRate;
  }

  /** The event this sink sends for a call (no sampling applied). */
  buildEvent(trace: AgentCallTraceEmission): PostHogTraceEvent {
    const { distinctId, anonymous } = this.distinctIdOf(trace);
    const context = trace.context;
    const embedding = isEmbeddingTrace(trace);
    const properties: Record<string, unknown> = {
      ...customAttributes(trace.traceContext?.attributes),
      $ai_trace_id: trace.traceContext?.traceId ?? randomUUID(),
      $ai_span_name: trace.agentRef,
      $ai_model: trace.model,
      $ai_provider: trace.providerRef,
      $ai_is_error: trace.outcome === 'error',
      wildo_agent_ref: trace.agentRef,
      wildo_operation_key: trace.operationKey,
      wildo_outcome: trace.outcome,
    };
    if (context?.executionTime != null) properties.$ai_latency = context.executionTime / 1000;
    if (context?.usage) properties.$ai_input_tokens = context.usage.inputTokens;
    if (trace.attempt !== undefined) properties.wildo_attempt = trace.attempt;
    if (trace.error) properties.$ai_error = boundedErrorText(trace.error);
    if (anonymous) properties.$process_person_profile = false;
    if (embedding) {
      const texts = embeddingTextsOf(trace.input);
      const count = context?.embeddingCount ?? texts?.length;
      if (count !== undefined) properties.wildo_embedding_count = count;
      if (context?.embeddingDims != null) properties.wildo_embedding_dims = context.embeddingDims;
      // Only the texts, and only on request; vectors (the output) are never sent.
      if (this.captureContent && texts) properties.$ai_input = boundedTraceContent(texts);
    } else {
      if (context?.usage) {
        properties.$ai_output_tokens = context.usage.outputTokens;
        properties.wildo_total_tokens = context.usage.totalTokens;
      }
      if (context?.finishReason) properties.wildo_finish_reason = context.finishReason;
      if (this.captureContent) {
        if (trace.input !== undefined) properties.$ai_input = boundedTraceContent(asMessages(trace.input, 'user'));
        if (trace.output !== undefined)
          properties.$ai_output_choices = boundedTraceContent(asMessages(trace.output, 'assistant'));
      }
    }
    const timestamp = new Date(trace.timestamp);
    return {
      distinctId,
      event: embedding ? '$ai_embedding' : '$ai_generation',
      properties,
      ...(Number.isNaN(timestamp.getTime()) ? {} : { timestamp }),
    };
  }

  private distinctIdOf(trace: AgentCallTraceEmission): { distinctId: string; anonymous: boolean } {
    const attributes = trace.traceContext?.attributes;
    for (const key of POSTHOG_DISTINCT_ID_ATTRIBUTES) {
      const value = attributes?.[key];
      if ((typeof value === 'string' && value !== '') || typeof value === 'number')
        return { distinctId: String(value), anonymous: false };
    }
    return { distinctId: this.anonymousDistinctId, anonymous: true };
  }
}

function clampRate(rate: number): number {
  if (!Number.isFinite(rate)) return 0;
  return Math.min(1, Math.max(0, rate));
}

/** A stable value in [0, 1) for a trace id (first 48 bits of its SHA-256). */
function unitIntervalOf(traceId: string): number {
  const digest = createHash('sha256').update(traceId).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** Trace attributes as custom properties; PostHog's own (`$...`) names cannot be set through them. */
function customAttributes(attributes: Record<string, string | number | boolean> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!attributes) return out;
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith('$')) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}

/** Messages in PostHog's shape: arrays are taken as messages, anything else becomes one message. */
function asMessages(content: unknown, role: 'user' | 'assistant'): unknown {
  if (Array.isArray(content)) return content;
  return [{ role, content }];
}

/** The texts an embeddings call embedded: a string, an array of strings, or `{ texts }`. Anything else: unknown. */
function embeddingTextsOf(input: unknown): string[] | undefined {
  if (typeof input === 'string') return [input];
  const list = Array.isArray(input) ? input : isRecord(input) && Array.isArray(input.texts) ? input.texts : undefined;
  return list?.filter((item): item is string => typeof item === 'string');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function boundedErrorText(error: { name: string; message: string }): string {
  const text = `${error.name}: ${error.message}`;
  return text.length > 1_000 ? `${text.slice(0, 1_000)}…` : text;
}

/** An error for a log line: name and message only. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Options of {@link createPostHogClient}. */
export interface PostHogClientOptions {
  apiKey: string;
  /** `POSTHOG_HOST`; default PostHog Cloud US (the client's default). */
  host?: string;
  logger: Logger;
  /** Events queued before a send (default 20). */
  flushAt?: number;
  /** Milliseconds between periodic sends (default 10 s). */
  flushIntervalMs?: number;
  /** Send retries after a network error (default the client's, 3). */
  fetchRetryCount?: number;
  /** Milliseconds between retries (default the client's, 3 s). */
  fetchRetryDelayMs?: number;
}

/**
 * A `posthog-node` client, loaded on first use: the package is required only where PostHog actually runs.
 * GeoIP is off (the events come from the server, not the person); client errors go to the logger.
 */
export async function createPostHogClient(options: PostHogClientOptions): Promise<PostHogCaptureClient> {
  const { PostHog } = await import('posthog-node');
  const client = new PostHog(options.apiKey, {
    ...(options.host ? { host: options.host } : {}),
    flushAt: options.flushAt ?? 20,
    flushInterval: options.flushIntervalMs ?? 10_000,
    ...(options.fetchRetryCount !== undefined ? { fetchRetryCount: options.fetchRetryCount } : {}),
    ...(options.fetchRetryDelayMs !== undefined ? { fetchRetryDelay: options.fetchRetryDelayMs } : {}),
    disableGeoip: true,
  });
  client.on('error', (error: unknown) =>
    options.logger.warn('PostHog delivery failed', { error: describeError(error) }),
  );
  return client;
}
