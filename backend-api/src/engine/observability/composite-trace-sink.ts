import type { AgentCallTraceEmission } from '@wildo/shared-lib';
import type { Logger } from '../logging/index.js';
import { describeError } from './posthog-trace-sink.js';
import type { AgentTraceSink } from './trace-sink.js';

/**
 * Fans each trace out to its children. A child that throws or rejects is logged (sink name, agent, error)
 * and skipped: `emit` always resolves, so the model call it observes never fails because of telemetry.
 * `flush` and `shutdown` reach every child, also when one of them fails.
 */
export class CompositeTraceSink implements AgentTraceSink {
  readonly name = 'composite';
  readonly children: readonly AgentTraceSink[];

  constructor(
    children: readonly AgentTraceSink[],
    private readonly logger: Logger,
  ) {
    this.children = [...children];
  }

  /** Resolves once every child has taken the trace (or failed to); never rejects. Callers need not await it. */
  emit(trace: AgentCallTraceEmission): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const child of this.children) {
      try {
        const result = child.emit(trace);
        if (isPromiseLike(result))
          pending.push(
            Promise.resolve(result).then(noop, (error: unknown) => this.report(child, 'emit', error, trace)),
          );
      } catch (error) {
        this.report(child, 'emit', error, trace);
      }
    }
    return pending.length === 0 ? Promise.resolve() : Promise.all(pending).then(noop);
  }

  /** Flushes every child; a failing child is logged. Never rejects. */
  flush(): Promise<void> {
    return this.forEachChild('flush', (child) => child.flush());
  }

  /** Shuts every child down (a child without `shutdown` is flushed). Never rejects. */
  shutdown(): Promise<void> {
    return this.forEachChild('shutdown', (child) => (child.shutdown ? child.shutdown() : child.flush()));
  }

  private async forEachChild(step: 'flush' | 'shutdown', run: (child: AgentTraceSink) => Promise<void>): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        try {
          await run(child);
        } catch (error) {
          this.report(child, step, error);
        }
      }),
    );
  }

  private report(
    child: AgentTraceSink,
    step: 'emit' | 'flush' | 'shutdown',
    error: unknown,
    trace?: AgentCallTraceEmission,
  ): void {
    try {
      this.logger.warn('a trace sink failed; the model call is not affected', {
        sink: child.name,
        step,
        ...(trace ? { agentRef: trace.agentRef } : {}),
        error: describeError(error),
      });
    } catch {
      // A failing logger must not turn telemetry into a failure either.
    }
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function noop(): void {}
