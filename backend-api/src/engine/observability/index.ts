// Observability of model calls: trace sinks (structured logger, PostHog, composite) and their selection.
export type { AgentTraceSink } from './trace-sink.js';
export { AGENT_CALL_TRACE_LOG_MESSAGE, LoggerTraceSink } from './logger-trace-sink.js';
export {
  createPostHogClient,
  isEmbeddingTrace,
  POSTHOG_ANONYMOUS_DISTINCT_ID,
  POSTHOG_DISTINCT_ID_ATTRIBUTES,
  PostHogTraceSink,
  type PostHogCaptureClient,
  type PostHogClientOptions,
  type PostHogTraceEvent,
  type PostHogTraceSinkOptions,
} from './posthog-trace-sink.js';
export { CompositeTraceSink } from './composite-trace-sink.js';
export {
  createTraceSink,
  LLM_OBS_CAPTURE_CONTENT_ENV,
  LLM_OBS_SAMPLE_RATE_ENV,
  POSTHOG_HOST_ENV,
  POSTHOG_PROJECT_API_KEY_ENV,
  resolveLlmObservabilityPolicy,
  type CreateTraceSinkOptions,
  type LlmObservabilityPolicy,
  type TraceSinkEnv,
  type TraceSinkRuntime,
} from './create-trace-sink.js';
export { boundedTraceContent, DEFAULT_TRACE_CONTENT_LIMITS, type TraceContentLimits } from './trace-content.js';
export { GEN_AI, OpenTelemetryTraceSink } from './opentelemetry-trace-sink.js';
export {
  activeTracer,
  OTLP_ENABLED_ENV,
  startTelemetry,
  TELEMETRY_SCOPE,
  telemetrySettingsFrom,
  type Telemetry,
  type TelemetrySettings,
} from './telemetry.js';
export { traceMcpToolCall, type McpToolCallTrace } from './mcp-spans.js';
export { traceAgentTurn } from './agent-spans.js';
