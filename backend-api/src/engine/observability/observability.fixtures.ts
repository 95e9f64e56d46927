// Test fixtures of the observability tests: traces, a recording logger, a fake PostHog client.
import { AgentTraceabilityLevel, type AgentCallTraceEmission } from '@wildo/shared-lib';
import type { Logger } from '../logging/index.js';
import type { PostHogCaptureClient, PostHogTraceEvent } from './posthog-trace-sink.js';

/** One line a {@link recordingLogger} received. */
export interface RecordedLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

/** A logger that keeps its lines in memory. */
export function recordingLogger(lines: RecordedLine[] = []): Logger & { lines: RecordedLine[] } {
  const record =
    (level: RecordedLine['level']) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      lines.push({ level, message, fields });
    };
  return {
    lines,
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: () => recordingLogger(lines),
  };
}

/** A chat generation with usage, content and a trace context; override what a test needs. */
export function generationTrace(overrides: Partial<AgentCallTraceEmission> = {}): AgentCallTraceEmission {
  return {
    agentRef: 'ticket-triage',
    providerRef: 'anthropic',
    model: 'claude-sonnet-5',
    operationKey: 'CHAT_COMPLETION',
    outcome: 'success',
    attempt: 1,
    context: {
      usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150 },
      executionTime: 1_500,
      finishReason: 'stop',
    },
    input: [{ role: 'user', content: 'SECRET-PROMPT: my card number is 4111' }],
    output: 'SECRET-COMPLETION: noted',
    traceability: AgentTraceabilityLevel.METADATA,
    traceContext: { traceId: 'trace-1', attributes: { userId: 'user-42', conversationId: 'conv-7' } },
    timestamp: '2026-03-01T12:00:00.000Z',
    ...overrides,
  };
}

/** The vectors an embeddings call returned (never to be sent). */
export const EMBEDDING_VECTORS = [
  Array.from({ length: 8 }, (_, i) => 0.123456 + i),
  Array.from({ length: 8 }, (_, i) => 0.654321 + i),
];

/** An embeddings call of two texts, with its vectors as output. */
export function embeddingTrace(overrides: Partial<AgentCallTraceEmission> = {}): AgentCallTraceEmission {
  return generationTrace({
    agentRef: 'knowledge-indexer',
    providerRef: 'openai',
    model: 'text-embedding-3-small',
    operationKey: 'EMBEDDINGS',
    context: {
      usage: { inputTokens: 12, outputTokens: 0, totalTokens: 12 },
      executionTime: 80,
      embeddingCount: 2,
      embeddingDims: 8,
    },
    input: ['first passage', 'second passage'],
    output: { vectors: EMBEDDING_VECTORS, dims: 8 },
    ...overrides,
  });
}

/** A PostHog client that records the events the sink built instead of sending them. */
export class FakePostHogClient implements PostHogCaptureClient {
  readonly events: PostHogTraceEvent[] = [];
  flushes = 0;
  shutdowns = 0;
  failCapture: Error | undefined;
  failFlush: Error | undefined;

  capture(event: PostHogTraceEvent): void {
    if (this.failCapture) throw this.failCapture;
    this.events.push(event);
  }

  async flush(): Promise<void> {
    this.flushes += 1;
    if (this.failFlush) throw this.failFlush;
  }

  async shutdown(): Promise<void> {
    this.shutdowns += 1;
    await this.flush();
  }
}
