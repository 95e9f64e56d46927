import { AgentTraceabilityLevel, type AgentCallTraceEmission } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { Logger } from '../logging/index.js';
import { boundedTraceContent } from './trace-content.js';
import type { AgentTraceSink } from './trace-sink.js';

/** The message of every trace line (search logs for it). */
export const AGENT_CALL_TRACE_LOG_MESSAGE = 'agent-call-trace';

/**
 * Writes each model call to the structured logger: agent, provider, model, outcome, attempt, usage, duration,
 * finish reason, error and the trace's correlation. Prompt and completion (`input`/`output`) are written only
 * when the call's resolved traceability is `AgentTraceabilityLevel.DEBUG_VERBOSE`; PostHog's `captureContent`
 * does not change this policy. Verbose content is bounded (base64 payloads and vectors summarized).
 */
@injectable()
export class LoggerTraceSink implements AgentTraceSink {
  readonly name = 'logger';

  constructor(@inject(SAAS_SERVICE_TYPES.Logger) private readonly logger: Logger) {}

  emit(trace: AgentCallTraceEmission): void {
    const verbose = trace.traceability === AgentTraceabilityLevel.DEBUG_VERBOSE;
    const context = trace.context;
    const traceContext = trace.traceContext;
    this.logger.info(AGENT_CALL_TRACE_LOG_MESSAGE, {
      agentRef: trace.agentRef,
      providerRef: trace.providerRef,
      model: trace.model,
      operationKey: trace.operationKey,
      outcome: trace.outcome,
      ...(trace.attempt !== undefined ? { attempt: trace.attempt } : {}),
      ...(context?.usage ? { usage: context.usage } : {}),
      ...(context?.executionTime != null ? { executionTimeMs: context.executionTime } : {}),
      ...(context?.finishReason ? { finishReason: context.finishReason } : {}),
      ...(context?.embeddingCount != null ? { embeddingCount: context.embeddingCount } : {}),
      ...(context?.embeddingDims != null ? { embeddingDims: context.embeddingDims } : {}),
      ...(trace.error ? { error: trace.error } : {}),
      ...(traceContext?.traceId ? { traceId: traceContext.traceId } : {}),
      ...(traceContext?.attributes ? { attributes: traceContext.attributes } : {}),
      ...(verbose ? { input: boundedTraceContent(trace.input), output: boundedTraceContent(trace.output) } : {}),
    });
  }

  async flush(): Promise<void> {
    // Lines are written synchronously: nothing is buffered here.
  }
}
