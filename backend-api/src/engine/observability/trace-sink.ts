import type { AgentCallTraceEmission } from '@wildo/shared-lib';

/**
 * Where model-call traces go (the structured logger, PostHog, a composite of several).
 *
 * The runtime emits through a {@link CompositeTraceSink} (what `createTraceSink` returns and what is bound
 * to `SAAS_SERVICE_TYPES.AgentTraceSink`): it isolates a child that throws or rejects, so a broken sink
 * never fails the model call it observes. Individual sinks should still catch what they can.
 */
export interface AgentTraceSink {
  /** Short, stable, used in logs (`logger`, `posthog`, `composite`). */
  readonly name: string;
  /** Records one call. May throw or reject; the composite logs that and carries on. */
  emit(trace: AgentCallTraceEmission): void | Promise<void>;
  /** Delivers anything buffered (called on shutdown, and by short-lived processes). */
  flush(): Promise<void>;
  /** Flushes, then releases what the sink holds (timers, sockets); the sink sends nothing afterwards. Optional. */
  shutdown?(): Promise<void>;
}
