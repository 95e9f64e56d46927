import { performance } from 'node:perf_hooks';
import { AgentTraceabilityLevel, type AgentCallTraceEmission, type AgentCallUsage } from '@wildo/shared-lib';
import type { Clock } from '../../container/index.js';
import type { Logger } from '../../logging/index.js';
import type { AgentTraceSink } from '../../observability/index.js';
import type { ResolvedAgent } from '../systems/index.js';
import type { BudgetTenant, TokenBudgetService } from '../budgets/index.js';

/** What one model call reports when it ends. */
export interface AgentCallReport {
  agent: ResolvedAgent;
  /** `performance.now()` when the call started. */
  startedAt: number;
  outcome: 'success' | 'error';
  usage?: AgentCallUsage;
  finishReason?: string;
  error?: unknown;
  input?: unknown;
  output?: unknown;
  attempt?: number;
  /** Charged with the call's tokens, when the call is part of a budgeted run. */
  tenant?: BudgetTenant;
  traceContext?: AgentCallTraceEmission['traceContext'];
}

/**
 * The one place a model call is accounted for, whichever path made it (buffered invocation, streaming turn):
 * a trace to the sinks, and the tokens to the tenant's budget. Neither may fail the call it observes.
 */
export class AgentCallRecorder {
  constructor(
    private readonly sink: AgentTraceSink,
    private readonly budgets: TokenBudgetService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Emits the trace and records consumption; failures are logged, never thrown. */
  async record(report: AgentCallReport): Promise<void> {
    const { agent } = report;
    const trace: AgentCallTraceEmission = {
      agentRef: agent.declaration.ref,
      providerRef: agent.providerRef,
      model: agent.model,
      operationKey: agent.operationKey,
      outcome: report.outcome,
      attempt: report.attempt ?? 1,
      context: {
        executionTime: Math.round(performance.now() - report.startedAt),
        ...(report.usage ? { usage: report.usage } : {}),
        ...(report.finishReason ? { finishReason: report.finishReason } : {}),
      },
      ...(report.error !== undefined ? { error: describe(report.error) } : {}),
      ...(report.input !== undefined ? { input: report.input } : {}),
      ...(report.output !== undefined ? { output: report.output } : {}),
      traceability: agent.config.traceability ?? AgentTraceabilityLevel.METADATA,
      ...(report.traceContext ? { traceContext: report.traceContext } : {}),
      timestamp: this.clock.now().toISOString(),
    };
    const tokens = report.usage?.totalTokens ?? 0;
    await Promise.all([
      Promise.resolve()
        .then(() => this.sink.emit(trace))
        .catch((error: unknown) =>
          this.logger.warn('agent trace sink failed', { sink: this.sink.name, error: String(error) }),
        ),
      report.tenant && tokens > 0
        ? this.budgets.recordConsumption(report.tenant, tokens).catch((error: unknown) =>
            // The call happened; a lost record under-counts, which the log makes visible to operators.
            this.logger.error('token consumption could not be recorded', {
              agentRef: agent.declaration.ref,
              tokens,
              error: String(error),
            }),
          )
        : undefined,
    ]);
  }
}

/** Name and message of an error for a trace (provider errors carry client-safe messages; others are summarized). */
function describe(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message.slice(0, 500) };
  return { name: 'Error', message: String(error).slice(0, 500) };
}
