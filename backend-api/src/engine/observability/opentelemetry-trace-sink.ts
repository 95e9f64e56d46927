import { SpanKind, SpanStatusCode, type Histogram, type Meter, type Tracer } from '@opentelemetry/api';
import type { AgentCallTraceEmission } from '@wildo/shared-lib';
import { isEmbeddingTrace } from './posthog-trace-sink.js';
import type { AgentTraceSink } from './trace-sink.js';

/** GenAI semantic convention names (incubating; spelled here as the conventions write them). */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  agentName: 'gen_ai.agent.name',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  tokenType: 'gen_ai.token.type',
  embeddingsDimension: 'gen_ai.embeddings.dimension.count',
} as const;

/**
 * A model call as a GenAI span (`chat {model}` or `embeddings {model}`, client kind, parented to the work that made
 * it) with its tokens and outcome, and the GenAI client metrics (`gen_ai.client.token.usage`,
 * `gen_ai.client.operation.duration`). Prompts and completions go in only when content capture is on.
 */
export class OpenTelemetryTraceSink implements AgentTraceSink {
  readonly name = 'opentelemetry';
  private readonly tokens: Histogram;
  private readonly duration: Histogram;

  constructor(
    private readonly tracer: Tracer,
    meter: Meter,
    private readonly captureContent: boolean,
  ) {
    this.tokens = meter.createHistogram('gen_ai.client.token.usage', {
      unit: '{token}',
      description: 'Tokens used per model call, by type (input, output).',
    });
    this.duration = meter.createHistogram('gen_ai.client.operation.duration', {
      unit: 's',
      description: 'Duration of model calls.',
    });
  }

  emit(emission: AgentCallTraceEmission): void {
    const operation = isEmbeddingTrace(emission) ? 'embeddings' : 'chat';
    const durationMs = emission.context?.executionTime ?? 0;
    const end = Date.parse(emission.timestamp) || Date.now();
    const common = {
      [GEN_AI.operationName]: operation,
      [GEN_AI.providerName]: emission.providerRef,
      [GEN_AI.requestModel]: emission.model,
    };
    const span = this.tracer.startSpan(`${operation} ${emission.model}`, {
      kind: SpanKind.CLIENT,
      startTime: end - durationMs,
      attributes: {
        ...common,
        [GEN_AI.agentName]: emission.agentRef,
        'wildo.operation.key': emission.operationKey,
        ...(emission.attempt !== undefined ? { 'wildo.attempt': emission.attempt } : {}),
        ...(emission.context?.usage
          ? {
              [GEN_AI.inputTokens]: emission.context.usage.inputTokens,
              [GEN_AI.outputTokens]: emission.context.usage.outputTokens,
            }
          : {}),
        ...(emission.context?.finishReason ? { [GEN_AI.finishReasons]: [emission.context.finishReason] } : {}),
        ...(emission.context?.embeddingDims != null
          ? { [GEN_AI.embeddingsDimension]: emission.context.embeddingDims }
          : {}),
      },
    });
    if (this.captureContent) {
      if (emission.input !== undefined) span.setAttribute(GEN_AI.inputMessages, JSON.stringify(emission.input));
      if (emission.output !== undefined) span.setAttribute(GEN_AI.outputMessages, JSON.stringify(emission.output));
    }
    if (emission.outcome === 'error') {
      span.setAttribute('error.type', emission.error?.name ?? 'error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: emission.error?.message ?? 'model call failed' });
    }
    span.end(end);
    const usage = emission.context?.usage;
    if (usage) {
      this.tokens.record(usage.inputTokens, { ...common, [GEN_AI.tokenType]: 'input' });
      this.tokens.record(usage.outputTokens, { ...common, [GEN_AI.tokenType]: 'output' });
    }
    this.duration.record(durationMs / 1000, {
      ...common,
      ...(emission.outcome === 'error' ? { 'error.type': emission.error?.name ?? 'error' } : {}),
    });
  }

  async flush(): Promise<void> {
    // The SDK's processors flush at shutdown of the telemetry itself.
  }
}
