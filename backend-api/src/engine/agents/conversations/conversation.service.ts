import { performance } from 'node:perf_hooks';
import type { AgentCallUsage, LLMAgentConfig } from '@wildo/shared-lib';
import { FrameworkError, toFrameworkError } from '../../errors/index.js';
import type { Clock } from '../../container/clock.js';
import type { AuthenticatedPrincipal } from '../../identity/principal.types.js';
import type { Logger } from '../../logging/index.js';
import type { DispatchSurface } from '../../resources/execution-context.js';
import { refuseUnstorableText } from '../../resources/operation-input.js';
import { firstUnstorablePath, toStorableValue } from '../../resources/schema/index.js';
import type { AgentCallRecorder } from '../agent-call-recorder.js';
import type { AgentsRegistry } from '../agents-registry.service.js';
import { ownerKeyOf, type ApprovalService } from '../approvals/approval.service.js';
import type { TokenBudgetService } from '../budgets/token-budget.types.js';
import { admitBudget } from '../budgets/budget-admission.js';
import type { ExternalMcpConnector, ExternalMcpSession } from '../external-mcp/external-mcp.service.js';
import { renderSystemPrompt } from '../prompt-spec.js';
import { toAgentCallError } from '../provider-failure.js';
import type { LLMProviderAdapter, ProviderMessage, ProviderToolCall } from '../providers/llm-provider.types.js';
import type { ActorSystemAccess, SystemAdmission } from '../systems/actor-system-access.service.js';
import type { ToolDispatchPath } from '../tools/tool-caller.js';
import { createToolExecutionContext } from '../tools/tool-execution-context.js';
import type { ConversationStore, Execution, ExecutionOwner, ExecutionStatus } from './conversation.store.js';
import type { TurnEvent } from './turn-events.js';
import { TurnJournal } from './turn-journal.js';
import { buildTurnTools, type ToolOutcome, type TurnTool, type TurnToolSet } from './turn-tools.js';

/** Tool rounds per turn when the system does not set `maxToolSteps`. */
export const DEFAULT_MAX_TOOL_STEPS = 8;
/** Longest user message accepted. */
export const MAX_USER_MESSAGE_CHARS = 32_000;
/** A tool result is cut to this many characters before the model reads it (the browser gets it whole). */
export const MAX_TOOL_RESULT_CHARS = 20_000;
/** The model sees at most this many earlier messages of a conversation. */
export const HISTORY_WINDOW = 200;

/** Who starts or continues a conversation, and with what. */
export interface StartTurnRequest {
  systemRef: string;
  /** Continue this conversation (found only for the same owner, credential and agent instance). */
  executionId?: string;
  message: string;
  principal: AuthenticatedPrincipal;
  organizationId?: string;
  requestId: string;
  surface?: DispatchSurface;
  signal?: AbortSignal;
}

/** A person's decision on a paused call, continuing the conversation it paused. */
export interface ResumeTurnRequest {
  approvalId: string;
  approvalToken: string;
  decision: 'approve' | 'deny';
  modifiedArguments?: Record<string, unknown>;
  principal: AuthenticatedPrincipal;
  requestId: string;
  surface?: DispatchSurface;
  signal?: AbortSignal;
}

/** A conversation reloaded by its owner. */
export interface ConversationTranscript {
  executionId: string;
  systemRef: string;
  organizationId: string | null;
  status: ExecutionStatus;
  messages: ProviderMessage[];
}

/** What the service needs; built by the agents module. */
export interface ConversationServiceDeps {
  registry: AgentsRegistry;
  access: ActorSystemAccess;
  store: ConversationStore;
  approvals: ApprovalService;
  providers: { get(ref: string): LLMProviderAdapter };
  recorder: AgentCallRecorder;
  budgets: TokenBudgetService;
  external: ExternalMcpConnector;
  clock: Clock;
  /** What function tools dispatch through: nothing else of the engine reaches them. */
  toolDispatch: ToolDispatchPath;
  logger: Logger;
}

/** One turn in flight. */
interface TurnRun {
  admission: SystemAdmission;
  execution: Execution;
  principal: AuthenticatedPrincipal;
  journal: TurnJournal;
  tools: TurnToolSet;
  requestId: string;
  signal: AbortSignal | undefined;
  usage: AgentCallUsage;
  /** What the conversation becomes when the turn lets go of it. */
  release: ExecutionStatus;
  /** Whether this turn holds a stored conversation's claim (a new conversation is stored by its journal). */
  claimed: boolean;
  /** Tool-call arguments as the model sent them, by call id, where the stored copy had to be repaired. */
  rawArguments: Map<string, unknown>;
}

/** Resolves after the event loop's pending I/O callbacks (`setImmediate`). */
const nextLoopPass = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A turn about to run; its journal and tools are set once the conversation and the agent's tools are loaded. */
function newRun(
  admission: SystemAdmission,
  execution: Execution,
  request: { principal: AuthenticatedPrincipal; requestId: string; signal?: AbortSignal | undefined },
  state: Pick<TurnRun, 'release' | 'claimed'>,
): TurnRun {
  return {
    admission,
    execution,
    principal: request.principal,
    journal: undefined as unknown as TurnJournal,
    tools: undefined as unknown as TurnToolSet,
    requestId: request.requestId,
    signal: request.signal,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    rawArguments: new Map(),
    ...state,
  };
}

/**
 * The credential kind a conversation is bound to: the first-party app and a delegated client do not share one, nor
 * does a client's token restricted to one organization share its unrestricted tokens' conversations.
 */
function credentialKeyOf(principal: AuthenticatedPrincipal): string {
  const restriction = principal.kind === 'user' && principal.organizationRestriction !== undefined ? `@${principal.organizationRestriction}` : '';
  return `${principal.credential.type}:${principal.credential.authorizedParty ?? ''}${restriction}`;
}

/** Calls of the last assistant message that have no result yet, in the model's order. */
export function outstandingCalls(history: readonly ProviderMessage[]): ProviderToolCall[] {
  let i = history.length - 1;
  const answered = new Set<string>();
  while (i >= 0 && history[i]?.role === 'tool') answered.add((history[i] as { toolCallId: string }).toolCallId), i--;
  const last = history[i];
  if (!last || last.role !== 'assistant' || !last.toolCalls) return [];
  return last.toolCalls.filter((call) => !answered.has(call.id));
}

/** The messages the model reads: a bounded tail that starts at a user message (never at an orphaned tool result). */
function windowOf(history: readonly ProviderMessage[]): readonly ProviderMessage[] {
  if (history.length <= HISTORY_WINDOW) return history;
  const tail = history.slice(-HISTORY_WINDOW);
  const start = tail.findIndex((message) => message.role === 'user');
  return start <= 0 ? tail : tail.slice(start);
}

function toolMessage(call: ProviderToolCall, outcome: ToolOutcome): ProviderMessage {
  const payload = JSON.stringify(outcome.ok ? outcome.result ?? null : { error: outcome.error }) ?? 'null';
  const content = payload.length > MAX_TOOL_RESULT_CHARS ? `${payload.slice(0, MAX_TOOL_RESULT_CHARS)}… [truncated]` : payload;
  return { role: 'tool', toolCallId: call.id, name: call.name, content, ...(outcome.ok ? {} : { isError: true }) };
}

const notRun = (message: string): ToolOutcome => ({ ok: false, error: { code: 'NOT_RUN', message } });

/**
 * The streaming conversational path of actor systems. A turn admits the caller to the system and its budget,
 * claims the conversation (one turn at a time), loads the history server-side, then loops: the model streams
 * text and tool calls; each call is validated strictly and run through the shared dispatch path with the
 * owner's verified identity, or paused for a person's decision when its tool is gated; results go back to the
 * model until it stops or the step bound is reached. Every message is persisted as it happens.
 */
export class ConversationService {
  private readonly functionToolSets = new Map<string, TurnToolSet>();

  constructor(private readonly deps: ConversationServiceDeps) {}

  /** Starts a conversation or continues one by id, streaming the turn's events. */
  async *startTurn(request: StartTurnRequest): AsyncGenerator<TurnEvent, void> {
    const message = request.message.trim();
    if (message.length === 0 || message.length > MAX_USER_MESSAGE_CHARS) {
      throw new FrameworkError('VALIDATION_FAILED', `The message must have 1 to ${MAX_USER_MESSAGE_CHARS} characters.`, {
        reason: 'input_invalid',
        problems: [{ path: 'message', expected: `a string of 1 to ${MAX_USER_MESSAGE_CHARS} characters` }],
      });
    }
    // Before admission and any model call: a message the conversation could not store is refused, not lost.
    refuseUnstorableText(message, 'message');
    const admission = await this.deps.access.admit({
      systemRef: request.systemRef,
      principal: request.principal,
      ...(request.organizationId ? { organizationId: request.organizationId } : {}),
      surface: request.surface ?? 'rest',
      requestId: request.requestId,
    });
    this.requireProvider(admission);
    await admitBudget(this.deps.budgets, admission.tenant, this.deps.clock.now());
    const owner: ExecutionOwner = {
      ownerKey: ownerKeyOf(request.principal),
      credentialKey: credentialKeyOf(request.principal),
      systemRef: admission.system.ref,
      agentRef: admission.agent.declaration.ref,
      organizationId: request.organizationId ?? null,
    };
    const execution = request.executionId ? await this.claimExisting(request.executionId, owner) : this.deps.store.draft(owner);
    const run = newRun(admission, execution, request, { release: 'active', claimed: Boolean(request.executionId) });
    let sessions: ExternalMcpSession[] = [];
    try {
      yield { type: 'execution', executionId: execution.id, systemRef: owner.systemRef, agentRef: owner.agentRef };
      sessions = await this.openSessions(admission, request.signal);
      run.tools = this.toolsFor(admission, sessions);
      run.journal = new TurnJournal(this.deps.store, execution, request.executionId ? await this.deps.store.history(execution.id) : [], Boolean(request.executionId));
      // Calls left without a result (a lapsed approval, a turn cut short) are closed before the person speaks again.
      this.seal(run, notRun('The call was not run: it was not approved in time or the turn ended first.'));
      run.journal.hold({ role: 'user', content: message });
      yield* this.drive(run);
    } finally {
      await this.finish(run, sessions);
    }
  }

  /** Applies a person's decision on a paused call and continues the conversation it paused. */
  async *resumeAfterDecision(request: ResumeTurnRequest): AsyncGenerator<TurnEvent, void> {
    const { approvals, store } = this.deps;
    const executionId = await approvals.executionOf(request.principal, request.approvalId);
    const execution = await store.findForOwner(executionId, ownerKeyOf(request.principal));
    if (!execution) throw new FrameworkError('NOT_FOUND', 'No such approval request.');
    // Approval never replaces authorization: the owner must still be admitted to the system, and to a budget.
    const admission = await this.deps.access.admit({
      systemRef: execution.systemRef,
      principal: request.principal,
      ...(execution.organizationId ? { organizationId: execution.organizationId } : {}),
      surface: request.surface ?? 'rest',
      requestId: request.requestId,
    });
    if (admission.agent.declaration.ref !== execution.agentRef) throw new FrameworkError('CONFLICT', 'This assistant has changed since the action was proposed; ask again.');
    this.requireProvider(admission);
    await admitBudget(this.deps.budgets, admission.tenant, this.deps.clock.now());
    if (!(await store.claim(execution.id, ['awaiting_approval']))) {
      throw new FrameworkError('CONFLICT', 'This conversation is not waiting for a decision (it is busy or was already continued).');
    }
    // Until the decision is applied, a failure leaves the conversation waiting as it was.
    const run = newRun(admission, execution, request, { release: 'awaiting_approval', claimed: true });
    let sessions: ExternalMcpSession[] = [];
    try {
      sessions = await this.openSessions(admission, request.signal);
      run.tools = this.toolsFor(admission, sessions);
      const applied = await approvals.decide(
        request.principal,
        {
          approvalId: request.approvalId,
          approvalToken: request.approvalToken,
          decision: request.decision,
          ...(request.modifiedArguments !== undefined ? { modifiedArguments: request.modifiedArguments } : {}),
        },
        (functionRef, args) => {
          const tool = run.tools.byFunctionRef(functionRef);
          if (!tool) throw new FrameworkError('CONFLICT', 'This tool is no longer available to the assistant; ask again.');
          return tool.validate(args);
        },
      );
      run.release = 'active';
      run.journal = new TurnJournal(store, execution, await store.history(execution.id), true);
      const pending = outstandingCalls(run.journal.history)[0];
      yield { type: 'execution', executionId: execution.id, systemRef: execution.systemRef, agentRef: execution.agentRef };
      yield { type: 'approval_decided', approvalId: request.approvalId, toolCallId: applied.approval.toolCallId, decision: applied.decision, arguments: applied.arguments };
      if (!pending || pending.id !== applied.approval.toolCallId) {
        // The conversation moved on (the approval lapsed and was closed): nothing to run.
        yield* this.drive(run);
        return;
      }
      const tool = run.tools.byFunctionRef(applied.approval.functionRef);
      const outcome =
        applied.decision === 'approve' && tool
          ? await this.runTool(run, tool, applied.arguments)
          : ({ ok: false, error: { code: 'DENIED', message: 'The person declined this action.' } } satisfies ToolOutcome);
      run.journal.add(toolMessage(pending, outcome));
      yield { type: 'tool_result', toolCallId: pending.id, functionRef: applied.approval.functionRef, outcome };
      yield* this.drive(run);
    } finally {
      await this.finish(run, sessions);
    }
  }

  /**
   * A conversation as its owner reloads it: status and messages, oldest first. Anyone else's (or the same person's
   * through another kind of credential) is not found.
   */
  async transcript(principal: AuthenticatedPrincipal, executionId: string): Promise<ConversationTranscript> {
    const execution = await this.deps.store.findForOwner(executionId, ownerKeyOf(principal));
    if (!execution || execution.credentialKey !== credentialKeyOf(principal)) throw new FrameworkError('NOT_FOUND', 'No such conversation.');
    return {
      executionId: execution.id,
      systemRef: execution.systemRef,
      organizationId: execution.organizationId,
      status: execution.status,
      messages: await this.deps.store.history(execution.id),
    };
  }

  /**
   * Refuses (503, before any stream, claim or decision) when the agent's provider cannot be called on this server,
   * e.g. without its credential: the turn could only fail later.
   */
  private requireProvider(admission: SystemAdmission): void {
    try {
      this.deps.providers.get(admission.agent.providerRef);
    } catch (error) {
      throw toAgentCallError(error);
    }
  }

  /** Finds the caller's own conversation and claims it for this turn. */
  private async claimExisting(executionId: string, owner: ExecutionOwner): Promise<Execution> {
    const { store, approvals } = this.deps;
    const execution = await store.find(executionId, owner);
    if (!execution) throw new FrameworkError('NOT_FOUND', 'No such conversation.');
    if (await store.claim(execution.id, ['active'])) return execution;
    if (execution.status === 'awaiting_approval') {
      if (await approvals.hasPending(execution.id)) {
        throw new FrameworkError('CONFLICT', 'This conversation is waiting for your decision on a proposed action; approve or deny it first.');
      }
      // The request lapsed: close it, then the conversation goes on (its call is sealed as not run).
      await approvals.expireLapsed(execution.id);
      if (await store.claim(execution.id, ['awaiting_approval'])) return execution;
    }
    throw new FrameworkError('CONFLICT', 'Another turn of this conversation is in progress.');
  }

  private async openSessions(admission: SystemAdmission, signal: AbortSignal | undefined): Promise<ExternalMcpSession[]> {
    const refs = admission.agent.declaration.capabilities?.tools?.mcpRefs ?? [];
    return refs.length === 0 ? [] : this.deps.external.open(refs, signal);
  }

  /** Exactly the tools the agent declares; every call gated when the system's access entry demands approval. */
  private toolsFor(admission: SystemAdmission, sessions: readonly ExternalMcpSession[]): TurnToolSet {
    const refs = admission.agent.declaration.capabilities?.tools?.functionRefs ?? [];
    if (sessions.length === 0) {
      // Registered tools never change while the process runs: their contracts and JSON Schemas are built once.
      const key = `${admission.agent.declaration.ref}\u0000${admission.entry.requiresApproval}`;
      let cached = this.functionToolSets.get(key);
      if (!cached) {
        cached = buildTurnTools({ functionTools: refs.flatMap((ref) => this.deps.registry.tool(ref) ?? []), externalSessions: [], gatedServers: new Set(), gateAll: admission.entry.requiresApproval });
        this.functionToolSets.set(key, cached);
      }
      return cached;
    }
    return buildTurnTools({
      functionTools: refs.flatMap((ref) => this.deps.registry.tool(ref) ?? []),
      externalSessions: sessions,
      gatedServers: new Set(sessions.filter((s) => this.deps.external.requiresApproval(s.serverRef)).map((s) => s.serverRef)),
      gateAll: admission.entry.requiresApproval,
    });
  }

  /** The tool loop: run what is outstanding, ask the model, repeat until it stops, a call pauses, or the bound. */
  private async *drive(run: TurnRun): AsyncGenerator<TurnEvent, void> {
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
            yield { type: 'tool_result', toolCallId: call.id, functionRef: run.tools.byName(call.name)?.functionRef ?? call.name, outcome };
          }
          yield { type: 'turn_completed', status: 'max_steps', usage: run.usage };
          return;
        }
        rounds++;
        for (const call of outstanding) {
          const paused = yield* this.handleCall(run, call);
          if (paused) {
            run.release = 'awaiting_approval';
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

  /** Runs one call, or pauses it for approval (returns true). Refusals become results the model reads. */
  private async *handleCall(run: TurnRun, call: ProviderToolCall): AsyncGenerator<TurnEvent, boolean> {
    const tool = run.tools.byName(call.name);
    const functionRef = tool?.functionRef ?? call.name;
    let outcome: ToolOutcome;
    if (!tool) {
      outcome = { ok: false, error: { code: 'NOT_FOUND', message: `No tool named "${call.name}" is available.` } };
    } else {
      let args: Record<string, unknown> | undefined;
      try {
        // The model's own arguments are checked, not their repaired stored copy: unstorable text is refused.
        args = tool.validate(run.rawArguments.get(call.id) ?? call.arguments);
      } catch (error) {
        outcome = refusalOf(error);
      }
      if (args) {
        if (tool.requiresHumanApproval) {
          try {
            // The request refers to the conversation and its call: both are stored first.
            await run.journal.flush();
            const approval = await this.deps.approvals.request(
              { executionId: run.execution.id, functionRef, toolCallId: call.id, arguments: args, allowArgumentModification: tool.allowArgumentModification },
              run.principal,
            );
            yield { type: 'approval_required', approval };
            return true;
          } catch (error) {
            outcome = refusalOf(error);
          }
        } else if (tool.readOnly) {
          outcome = await this.runTool(run, tool, args);
        } else {
          // An effect is journaled on both sides: the call is stored before it runs, its result right after.
          await run.journal.flush();
          outcome = await this.runTool(run, tool, args);
          run.journal.add(toolMessage(call, outcome));
          yield { type: 'tool_result', toolCallId: call.id, functionRef, outcome };
          return false;
        }
      }
    }
    // Reads and refusals are replayable: they are stored with the rest of the turn.
    run.journal.hold(toolMessage(call, outcome!));
    yield { type: 'tool_result', toolCallId: call.id, functionRef, outcome: outcome! };
    return false;
  }

  private async runTool(run: TurnRun, tool: TurnTool, args: Record<string, unknown>): Promise<ToolOutcome> {
    const ctx = createToolExecutionContext(this.deps.toolDispatch, {
      principal: run.principal,
      ...(run.execution.organizationId ? { organizationId: run.execution.organizationId } : {}),
      executionId: run.execution.id,
      requestId: run.requestId,
      ...(run.signal ? { signal: run.signal } : {}),
    });
    try {
      return await tool.execute(args, ctx);
    } catch (error) {
      if (run.signal?.aborted) throw error;
      const outcome = refusalOf(error);
      if (!(error instanceof FrameworkError)) this.deps.logger.error('function tool failed', { functionRef: tool.functionRef, requestId: run.requestId, error: String(error) });
      return outcome;
    }
  }

  /** One streamed model call; returns how many tool calls it asked for. */
  private async *callModel(run: TurnRun): AsyncGenerator<TurnEvent, number> {
    const { agent } = run.admission;
    const config = agent.config as LLMAgentConfig;
    const startedAt = performance.now();
    let text = '';
    const calls: ProviderToolCall[] = [];
    let usage: AgentCallUsage | undefined;
    let finishReason: string | undefined;
    const report = { agent, startedAt, tenant: run.admission.tenant, traceContext: { traceId: run.execution.id, attributes: { systemRef: run.execution.systemRef, requestId: run.requestId } } };
    try {
      const adapter = this.deps.providers.get(agent.providerRef);
      if (!adapter.streamChat) throw new FrameworkError('NOT_IMPLEMENTED', 'This assistant’s provider cannot hold a conversation.');
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
          yield { type: 'tool_call', toolCallId: event.call.id, functionRef: run.tools.byName(event.call.name)?.functionRef ?? event.call.name, arguments: event.call.arguments };
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
      nextLoopPass().then(() => this.deps.recorder.record({ ...report, outcome: 'success', ...(usage ? { usage } : {}), ...(finishReason ? { finishReason } : {}), input: run.journal.history.at(-1), output: { text, toolCalls: calls } })),
    );
    if (usage) {
      run.usage.inputTokens += usage.inputTokens;
      run.usage.outputTokens += usage.outputTokens;
      run.usage.totalTokens += usage.totalTokens;
    }
    for (const call of calls) if (firstUnstorablePath(call.arguments)) run.rawArguments.set(toStorableValue(call.id), call.arguments);
    // Stored before any effect it asks for (see handleCall), else with the release of the conversation. The
    // journal repairs text the database cannot store (see TurnJournal): the answer is kept, not lost.
    run.journal.hold({ role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) });
    return calls.length;
  }

  /** Closes every outstanding call with a not-run result, so the history stays well-formed for the vendor. */
  private seal(run: TurnRun, outcome: ToolOutcome): ProviderToolCall[] {
    const outstanding = outstandingCalls(run.journal.history);
    for (const call of outstanding) run.journal.hold(toolMessage(call, outcome));
    return outstanding;
  }

  private async finish(run: TurnRun, sessions: readonly ExternalMcpSession[]): Promise<void> {
    await Promise.all(sessions.map((session) => session.close().catch(() => undefined)));
    if (!run.journal) {
      // The turn failed before it loaded the conversation: only a held claim needs letting go.
      if (run.claimed) await this.deps.store.setStatus(run.execution.id, run.release).catch(() => undefined);
      return;
    }
    try {
      await run.journal.close(run.release);
    } catch (error) {
      // A claim left behind goes stale after STALE_TURN_MS and is taken over; the log says why.
      this.deps.logger.error('conversation could not be stored', { executionId: run.execution.id, error: String(error) });
      throw new FrameworkError('SERVICE_UNAVAILABLE', 'The conversation could not be saved; try again shortly.', { retryAfterSeconds: 5, cause: error });
    }
  }
}

/** A refusal as the model and the browser read it: the framework's code, reason and client-safe message only. */
function refusalOf(error: unknown): ToolOutcome {
  const framework = toFrameworkError(error);
  if (framework.code === 'INTERNAL') return { ok: false, error: { code: 'TOOL_FAILED', message: 'The tool failed.' } };
  return {
    ok: false,
    error: {
      code: framework.code,
      message: framework.message,
      ...(framework.reason ? { reason: framework.reason } : {}),
      ...(framework.problems ? { problems: framework.problems } : {}),
    },
  };
}
