import { performance } from 'node:perf_hooks';
import type { AgentCallUsage, LLMAgentConfig } from '@wildo/shared-lib';
import { FrameworkError } from '../../errors/index.js';
import type { WithheldValue } from '../../governance/index.js';
import type { AuthenticatedPrincipal } from '../../identity/index.js';
import type { Logger } from '../../logging/index.js';
import { servicePathOf, type DispatchSurface } from '../../resources/index.js';
import { firstUnstorablePath, toStorableValue } from '../../resources/schema/index.js';
import type { AgentCallRecorder } from './agent-call-recorder.js';
import type { ApprovalService } from '../approvals/index.js';
import { renderSystemPrompt } from './prompt-spec.js';
import { toAgentCallError } from './provider-failure.js';
import type { LLMProviderAdapter, ProviderToolCall } from '../providers/index.js';
import type { SystemAdmission } from '../systems/index.js';
import {
  createToolExecutionContext,
  type ToolDispatchPath,
  type ToolOutcome,
  type TurnTool,
  type TurnToolSet,
} from '../tools/index.js';
import type { Execution, ExecutionStatus } from './conversation.store.js';
import type { TurnEvent } from './turn-events.js';
import type { TurnJournal } from './turn-journal.js';
import { notRun, outstandingCalls, refusalOf, toolMessage, windowOf } from './turn-messages.js';

/** Tool rounds per turn when the system does not set `maxToolSteps`. */
export const DEFAULT_MAX_TOOL_STEPS = 8;

/** A conversation held by one turn, and what it becomes when the turn lets go of it. */
export interface ConversationHold {
  readonly execution: Execution;
  release: ExecutionStatus;
  /** Whether this turn holds a stored conversation's claim (a new conversation is stored by its journal). */
  readonly claimed: boolean;
}

/** One turn in flight, once its conversation and its agent's tools are loaded. */
export interface TurnRun {
  readonly admission: SystemAdmission;
  readonly hold: ConversationHold;
  readonly principal: AuthenticatedPrincipal;
  readonly journal: TurnJournal;
  readonly tools: TurnToolSet;
  readonly requestId: string;
  readonly signal: AbortSignal | undefined;
  /** The surface the turn's tool dispatches are charged to: `tool` for browser turns, `a2a` for A2A turns. */
  readonly toolSurface: DispatchSurface;
  readonly usage: AgentCallUsage;
  /** Tool-call arguments as the model sent them, by call id, where the stored copy had to be repaired. */
  readonly rawArguments: Map<string, unknown>;
}

/** What the loop needs. */
export interface TurnLoopDeps {
  approvals: Pick<ApprovalService, 'request'>;
  providers: { get(ref: string): LLMProviderAdapter };
  recorder: Pick<AgentCallRecorder, 'record'>;
  /** What function tools dispatch through: nothing else of the engine reaches them. */
  toolDispatch: ToolDispatchPath;
  logger: Logger;
}

/** Resolves after the event loop's pending I/O callbacks (`setImmediate`). */
const nextLoopPass = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The tool loop of a turn: run what is outstanding, ask the model, repeat until it stops, a call pauses for a
 * person's decision, or the step bound is reached. Each call is validated strictly and run with the owner's
 * verified identity; results go back to the model; every message is journaled as it happens.
 */
export class TurnLoop {
  constructor(private readonly deps: TurnLoopDeps) {}

  /** Drives the turn to its end, streaming its events. */
  async *drive(run: TurnRun): AsyncGenerator<TurnEvent, void> {
    const maxRounds = run.admission.system.config.maxToolSteps ?? DEFAULT_MAX_TOOL_STEPS;
    let rounds = 0;
    for (;;) {
      run.signal?.throwIfAborted();
      run.journal.keepAlive();
      const outstanding = outstandingCalls(run.journal.history);
      if (outstanding.length > 0) {
        if (rounds >= maxRounds) {
          const outcome = notRun('The call was not run: the assistant reached its step limit for this turn.');
          for (const call of this.seal(run, outcome)) {
            yield {
              type: 'tool_result',
              toolCallId: call.id,
              functionRef: run.tools.byName(call.name)?.functionRef ?? call.name,
              outcome,
            };
          }
          yield { type: 'turn_completed', status: 'max_steps', usage: run.usage };
          return;
        }
        rounds++;
        for (const call of outstanding) {
          const paused = yield* this.handleCall(run, call);
          if (paused) {
            run.hold.release = 'awaiting_approval';
            yield { type: 'turn_completed', status: 'awaiting_approval', usage: run.usage };
            return;
          }
        }
      }
      const calls = yield* this.callModel(run);
      if (calls === 0) {
        yield { type: 'turn_completed', status: 'completed', usage: run.usage };
        return;
      }
    }
  }

  /** Runs one call as the conversation's owner; a thrown refusal becomes the outcome the model reads. */
  async runTool(
    run: TurnRun,
    tool: TurnTool,
    args: Record<string, unknown>,
    approvalId?: string,
  ): Promise<ToolOutcome> {
    const { execution } = run.hold;
    const withheld: WithheldValue[] = [];
    const ctx = createToolExecutionContext(this.deps.toolDispatch, {
      ...(approvalId ? { conversationApproval: { approvalId } } : {}),
      principal: run.principal,
      onWithheld: (values) => withheld.push(...values),
      ...(execution.organizationId ? { organizationId: execution.organizationId } : {}),
      executionId: execution.id,
      requestId: run.requestId,
      ...(run.signal ? { signal: run.signal } : {}),
      surface: run.toolSurface,
    });
    try {
      const outcome = await tool.execute(args, ctx);
      return outcome.ok && withheld.length > 0 ? { ...outcome, withheld } : outcome;
    } catch (error) {
      if (run.signal?.aborted) throw error;
      const outcome = refusalOf(error);
      if (!(error instanceof FrameworkError))
        this.deps.logger.error('function tool failed', {
          functionRef: tool.functionRef,
          requestId: run.requestId,
          error: String(error),
        });
      return outcome;
    }
  }

  /** Closes every outstanding call with a not-run result, so the history stays well-formed for the vendor. */
  seal(run: Pick<TurnRun, 'journal'>, outcome: ToolOutcome): ProviderToolCall[] {
    const outstanding = outstandingCalls(run.journal.history);
    for (const call of outstanding) run.journal.hold(toolMessage(call, outcome));
    return outstanding;
  }

  /** Runs one call, or pauses it for approval (returns true). Refusals become results the model reads. */
  private async *handleCall(run: TurnRun, call: ProviderToolCall): AsyncGenerator<TurnEvent, boolean> {
    const tool = run.tools.byName(call.name);
    const functionRef = tool?.functionRef ?? call.name;
    if (!tool)
      return yield* this.replayable(run, call, functionRef, {
        ok: false,
        error: { code: 'NOT_FOUND', message: `No tool named "${call.name}" is available.` },
      });
    let args: Record<string, unknown>;
    try {
      // The model's own arguments are checked, not their repaired stored copy: unstorable text is refused.
      args = tool.validate(run.rawArguments.get(call.id) ?? call.arguments);
    } catch (error) {
      return yield* this.replayable(run, call, functionRef, refusalOf(error));
    }
    if (tool.requiresHumanApproval || this.declaresApproval(tool)) {
      try {
        // The request refers to the conversation and its call: both are stored first.
        await run.journal.flush();
        const approval = await this.deps.approvals.request(
          {
            executionId: run.hold.execution.id,
            functionRef,
            toolCallId: call.id,
            arguments: args,
            allowArgumentModification: tool.allowArgumentModification,
          },
          run.principal,
        );
        yield { type: 'approval_required', approval };
        return true;
      } catch (error) {
        return yield* this.replayable(run, call, functionRef, refusalOf(error));
      }
    }
    if (tool.readOnly) return yield* this.replayable(run, call, functionRef, await this.runTool(run, tool, args));
    // An effect is journaled on both sides: the call is stored before it runs, its result right after.
    await run.journal.flush();
    const outcome = await this.runTool(run, tool, args);
    run.journal.add(toolMessage(call, outcome));
    yield { type: 'tool_result', toolCallId: call.id, functionRef, outcome };
    return false;
  }

  /** Whether the tool dispatches an operation that declares approval: the conversation's pause asks the person. */
  private declaresApproval(tool: TurnTool): boolean {
    const target = tool.resourceOperation;
    if (!target) return false;
    const path = servicePathOf(target.resourceType, target.operation, target.variantKey);
    return this.deps.toolDispatch.findOperation(path)?.approval !== undefined;
  }

  /** Reads and refusals are replayable: they are stored with the rest of the turn. */
  private async *replayable(
    run: TurnRun,
    call: ProviderToolCall,
    functionRef: string,
    outcome: ToolOutcome,
  ): AsyncGenerator<TurnEvent, boolean> {
    run.journal.hold(toolMessage(call, outcome));
    yield { type: 'tool_result', toolCallId: call.id, functionRef, outcome };
    return false;
  }

  /** One streamed model call; returns how many tool calls it asked for. */
  private async *callModel(run: TurnRun): AsyncGenerator<TurnEvent, number> {
    const { agent } = run.admission;
    const { execution } = run.hold;
    const config = agent.config as LLMAgentConfig;
    const startedAt = performance.now();
    let text = '';
    const calls: ProviderToolCall[] = [];
    let usage: AgentCallUsage | undefined;
    let finishReason: string | undefined;
    const report = {
      agent,
      startedAt,
      tenant: run.admission.tenant,
      traceContext: { traceId: execution.id, attributes: { systemRef: execution.systemRef, requestId: run.requestId } },
    };
    try {
      const adapter = this.deps.providers.get(agent.providerRef);
      if (!adapter.streamChat)
        throw new FrameworkError('NOT_IMPLEMENTED', 'This assistant’s provider cannot hold a conversation.');
      const stream = adapter.streamChat({
        model: agent.vendorModelId,
        system: renderSystemPrompt(agent.declaration.promptSpec),
        messages: windowOf(run.journal.history),
        ...(run.tools.size > 0 ? { tools: run.tools.specs() } : {}),
        ...(config.maxOutputTokens !== undefined ? { maxOutputTokens: config.maxOutputTokens } : {}),
        ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
        ...(config.reasoningEffort !== undefined ? { reasoningEffort: config.reasoningEffort } : {}),
        ...(run.signal ? { signal: run.signal } : {}),
      });
      for await (const event of stream) {
        if (event.type === 'text_delta') {
          text += event.text;
          yield { type: 'text_delta', text: event.text };
        } else if (event.type === 'tool_call') {
          calls.push(event.call);
          yield {
            type: 'tool_call',
            toolCallId: event.call.id,
            functionRef: run.tools.byName(event.call.name)?.functionRef ?? event.call.name,
            arguments: event.call.arguments,
          };
        } else {
          usage = event.usage;
          finishReason = event.finishReason;
        }
      }
    } catch (error) {
      run.journal.track(this.deps.recorder.record({ ...report, outcome: 'error', error, ...(usage ? { usage } : {}) }));
      throw toAgentCallError(error);
    }
    // Traced and charged behind the turn, from the next pass of the event loop: the tool calls the answer asks
    // for reach the database first (one connection on PGlite). The turn waits for both before it ends.
    run.journal.track(
      nextLoopPass().then(() =>
        this.deps.recorder.record({
          ...report,
          outcome: 'success',
          ...(usage ? { usage } : {}),
          ...(finishReason ? { finishReason } : {}),
          input: run.journal.history.at(-1),
          output: { text, toolCalls: calls },
        }),
      ),
    );
    if (usage) {
      run.usage.inputTokens += usage.inputTokens;
      run.usage.outputTokens += usage.outputTokens;
      run.usage.totalTokens += usage.totalTokens;
    }
    for (const call of calls)
      if (firstUnstorablePath(call.arguments)) run.rawArguments.set(toStorableValue(call.id), call.arguments);
    // Stored before any effect it asks for (see handleCall), else with the release of the conversation. The
    // journal repairs text the database cannot store (see TurnJournal): the answer is kept, not lost.
    run.journal.hold({ role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) });
    return calls.length;
  }
}
