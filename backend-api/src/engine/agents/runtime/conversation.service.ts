import type { Clock } from '../../container/index.js';
import { FrameworkError } from '../../errors/index.js';
import type { AuthenticatedPrincipal } from '../../identity/index.js';
import type { Logger } from '../../logging/index.js';
import { refuseUnstorableText, type DispatchSurface } from '../../resources/index.js';
import type { AgentCallRecorder } from './agent-call-recorder.js';
import type { ActorSystemAccess, AgentsRegistry, SystemAdmission } from '../systems/index.js';
import { ownerKeyOf, type ApprovalService } from '../approvals/index.js';
import type { TokenBudgetService } from '../budgets/index.js';
import type { ExternalMcpConnector, ExternalMcpSession } from '../external-mcp/index.js';
import type { LLMProviderAdapter, ProviderMessage } from '../providers/index.js';
import type { ToolDispatchPath, ToolOutcome, TurnToolSet } from '../tools/index.js';
import type {
  ConversationStore,
  Execution,
  ExecutionOwner,
  ExecutionStatus,
  TurnEndRow,
} from './conversation.store.js';
import { TurnAdmission } from './turn-admission.js';
import type { TurnEvent } from './turn-events.js';
import { TurnJournal } from './turn-journal.js';
import { TurnLoop, type ConversationHold, type TurnRun } from './turn-loop.js';
import { notRun, outstandingCalls, toolMessage } from './turn-messages.js';
import { TurnToolSets } from './turn-tool-sets.js';

export { DEFAULT_MAX_TOOL_STEPS } from './turn-loop.js';
export { HISTORY_WINDOW, MAX_TOOL_RESULT_CHARS, outstandingCalls } from './turn-messages.js';

/** Longest user message accepted. */
export const MAX_USER_MESSAGE_CHARS = 32_000;

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
  /**
   * Asked for once the turn has ended without error, just before its last write: a row to store in that same
   * statement (see {@link TurnEndRow}). The caller has read every event of the turn by then.
   */
  endRow?: () => TurnEndRow;
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

/** A turn whose conversation and tools are loaded. */
function newRun(
  admission: SystemAdmission,
  hold: ConversationHold,
  request: {
    principal: AuthenticatedPrincipal;
    requestId: string;
    signal?: AbortSignal | undefined;
    surface?: DispatchSurface | undefined;
  },
  journal: TurnJournal,
  tools: TurnToolSet,
): TurnRun {
  return {
    admission,
    hold,
    principal: request.principal,
    journal,
    tools,
    requestId: request.requestId,
    signal: request.signal,
    // Like MCP's direct calls, an A2A turn's tools are charged to its own surface's bucket; browser turns to `tool`.
    toolSurface: request.surface === 'a2a' ? 'a2a' : 'tool',
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    rawArguments: new Map(),
  };
}

/**
 * The credential kind a conversation is bound to: the first-party app and a delegated client do not share one, nor
 * does a client's token restricted to one organization share its unrestricted tokens' conversations.
 */
function credentialKeyOf(principal: AuthenticatedPrincipal): string {
  const restriction =
    principal.kind === 'user' && principal.organizationRestriction !== undefined
      ? `@${principal.organizationRestriction}`
      : '';
  return `${principal.credential.type}:${principal.credential.authorizedParty ?? ''}${restriction}`;
}

/** The person's message, trimmed; refused when empty, too long, or holding text the conversation could not store. */
function checkedMessage(raw: string): string {
  const message = raw.trim();
  if (message.length === 0 || message.length > MAX_USER_MESSAGE_CHARS) {
    throw new FrameworkError('VALIDATION_FAILED', `The message must have 1 to ${MAX_USER_MESSAGE_CHARS} characters.`, {
      reason: 'input_invalid',
      problems: [{ path: 'message', expected: `a string of 1 to ${MAX_USER_MESSAGE_CHARS} characters` }],
    });
  }
  // Before admission and any model call: a message the conversation could not store is refused, not lost.
  refuseUnstorableText(message, 'message');
  return message;
}

/**
 * The streaming conversational path of actor systems. A turn is admitted (system, agent, provider, budget; see
 * {@link TurnAdmission}), claims the conversation (one turn at a time), loads the history server-side, then runs
 * the tool loop ({@link TurnLoop}) over exactly the agent's tools ({@link TurnToolSets}); the conversation is let
 * go of, with what the turn still holds stored, when the turn ends however it ends.
 */
export class ConversationService {
  private readonly admission: TurnAdmission;
  private readonly toolSets: TurnToolSets;
  private readonly loop: TurnLoop;

  constructor(private readonly deps: ConversationServiceDeps) {
    this.admission = new TurnAdmission(deps);
    this.toolSets = new TurnToolSets(deps.registry, deps.external);
    this.loop = new TurnLoop(deps);
  }

  /** Starts a conversation or continues one by id, streaming the turn's events. */
  async *startTurn(request: StartTurnRequest): AsyncGenerator<TurnEvent, void> {
    const message = checkedMessage(request.message);
    const admission = await this.admission.admit({
      systemRef: request.systemRef,
      principal: request.principal,
      ...(request.organizationId ? { organizationId: request.organizationId } : {}),
      surface: request.surface ?? 'rest',
      requestId: request.requestId,
    });
    const owner: ExecutionOwner = {
      ownerKey: ownerKeyOf(request.principal),
      credentialKey: credentialKeyOf(request.principal),
      systemRef: admission.system.ref,
      agentRef: admission.agent.declaration.ref,
      organizationId: request.organizationId ?? null,
    };
    const execution = request.executionId
      ? await this.claimExisting(request.executionId, owner)
      : this.deps.store.draft(owner);
    const hold: ConversationHold = { execution, release: 'active', claimed: Boolean(request.executionId) };
    let sessions: ExternalMcpSession[] = [];
    let journal: TurnJournal | undefined;
    let ended = false;
    try {
      yield { type: 'execution', executionId: execution.id, systemRef: owner.systemRef, agentRef: owner.agentRef };
      sessions = await this.toolSets.openSessions(admission, request.signal);
      const tools = this.toolSets.toolsFor(admission, sessions);
      const history = request.executionId ? await this.deps.store.history(execution.id) : [];
      journal = new TurnJournal(this.deps.store, execution, history, Boolean(request.executionId));
      const run = newRun(admission, hold, request, journal, tools);
      // Calls left without a result (a lapsed approval, a turn cut short) are closed before the person speaks again.
      this.loop.seal(run, notRun('The call was not run: it was not approved in time or the turn ended first.'));
      journal.hold({ role: 'user', content: message });
      yield* this.loop.drive(run);
      ended = true;
    } finally {
      await this.finish(hold, journal, sessions, ended ? request.endRow?.() : undefined);
    }
  }

  /** Applies a person's decision on a paused call and continues the conversation it paused. */
  async *resumeAfterDecision(request: ResumeTurnRequest): AsyncGenerator<TurnEvent, void> {
    const { approvals, store } = this.deps;
    const executionId = await approvals.executionOf(request.principal, request.approvalId);
    const execution = await store.findForOwner(executionId, ownerKeyOf(request.principal));
    if (!execution) throw new FrameworkError('NOT_FOUND', 'No such approval request.');
    // Approval never replaces authorization: the owner must still be admitted to the system, and to a budget.
    const admission = await this.admission.admit({
      systemRef: execution.systemRef,
      principal: request.principal,
      ...(execution.organizationId ? { organizationId: execution.organizationId } : {}),
      surface: request.surface ?? 'rest',
      requestId: request.requestId,
      expectedAgentRef: execution.agentRef,
    });
    if (!(await store.claim(execution.id, ['awaiting_approval']))) {
      throw new FrameworkError(
        'CONFLICT',
        'This conversation is not waiting for a decision (it is busy or was already continued).',
      );
    }
    // Until the decision is applied, a failure leaves the conversation waiting as it was.
    const hold: ConversationHold = { execution, release: 'awaiting_approval', claimed: true };
    let sessions: ExternalMcpSession[] = [];
    let journal: TurnJournal | undefined;
    try {
      sessions = await this.toolSets.openSessions(admission, request.signal);
      const tools = this.toolSets.toolsFor(admission, sessions);
      const applied = await approvals.decide(
        request.principal,
        {
          approvalId: request.approvalId,
          approvalToken: request.approvalToken,
          decision: request.decision,
          ...(request.modifiedArguments !== undefined ? { modifiedArguments: request.modifiedArguments } : {}),
        },
        (functionRef, args) => {
          const tool = tools.byFunctionRef(functionRef);
          if (!tool)
            throw new FrameworkError('CONFLICT', 'This tool is no longer available to the assistant; ask again.');
          return tool.validate(args);
        },
      );
      hold.release = 'active';
      journal = new TurnJournal(store, execution, await store.history(execution.id), true);
      const run = newRun(admission, hold, request, journal, tools);
      const pending = outstandingCalls(journal.history)[0];
      yield {
        type: 'execution',
        executionId: execution.id,
        systemRef: execution.systemRef,
        agentRef: execution.agentRef,
      };
      yield {
        type: 'approval_decided',
        approvalId: request.approvalId,
        toolCallId: applied.approval.toolCallId,
        decision: applied.decision,
        arguments: applied.arguments,
      };
      if (!pending || pending.id !== applied.approval.toolCallId) {
        // The conversation moved on (the approval lapsed and was closed): nothing to run.
        yield* this.loop.drive(run);
        return;
      }
      const tool = tools.byFunctionRef(applied.approval.functionRef);
      const outcome =
        applied.decision === 'approve' && tool
          ? await this.loop.runTool(run, tool, applied.arguments, applied.approval.approvalId)
          : ({
              ok: false,
              error: { code: 'DENIED', message: 'The person declined this action.' },
            } satisfies ToolOutcome);
      journal.add(toolMessage(pending, outcome));
      yield { type: 'tool_result', toolCallId: pending.id, functionRef: applied.approval.functionRef, outcome };
      yield* this.loop.drive(run);
    } finally {
      await this.finish(hold, journal, sessions);
    }
  }

  /**
   * A conversation as its owner reloads it: status and messages, oldest first. Anyone else's (or the same person's
   * through another kind of credential) is not found.
   */
  async transcript(principal: AuthenticatedPrincipal, executionId: string): Promise<ConversationTranscript> {
    const execution = await this.deps.store.findForOwner(executionId, ownerKeyOf(principal));
    if (!execution || execution.credentialKey !== credentialKeyOf(principal))
      throw new FrameworkError('NOT_FOUND', 'No such conversation.');
    return {
      executionId: execution.id,
      systemRef: execution.systemRef,
      organizationId: execution.organizationId,
      status: execution.status,
      messages: await this.deps.store.history(execution.id),
    };
  }

  /** Finds the caller's own conversation and claims it for this turn. */
  private async claimExisting(executionId: string, owner: ExecutionOwner): Promise<Execution> {
    const { store, approvals } = this.deps;
    const execution = await store.find(executionId, owner);
    if (!execution) throw new FrameworkError('NOT_FOUND', 'No such conversation.');
    if (await store.claim(execution.id, ['active'])) return execution;
    if (execution.status === 'awaiting_approval') {
      if (await approvals.hasPending(execution.id)) {
        throw new FrameworkError(
          'CONFLICT',
          'This conversation is waiting for your decision on a proposed action; approve or deny it first.',
        );
      }
      // The request lapsed: close it, then the conversation goes on (its call is sealed as not run).
      await approvals.expireLapsed(execution.id);
      if (await store.claim(execution.id, ['awaiting_approval'])) return execution;
    }
    throw new FrameworkError('CONFLICT', 'Another turn of this conversation is in progress.');
  }

  /** Lets go of the conversation: what the journal holds is stored with the release; a bare claim is released. */
  private async finish(
    hold: ConversationHold,
    journal: TurnJournal | undefined,
    sessions: readonly ExternalMcpSession[],
    endRow?: TurnEndRow,
  ): Promise<void> {
    await Promise.all(sessions.map((session) => session.close().catch(() => undefined)));
    if (!journal) {
      // The turn failed before it loaded the conversation: only a held claim needs letting go.
      if (hold.claimed) await this.deps.store.setStatus(hold.execution.id, hold.release).catch(() => undefined);
      return;
    }
    try {
      await journal.close(hold.release, endRow);
    } catch (error) {
      // A claim left behind goes stale after STALE_TURN_MS and is taken over; the log says why.
      this.deps.logger.error('conversation could not be stored', {
        executionId: hold.execution.id,
        error: String(error),
      });
      throw new FrameworkError('SERVICE_UNAVAILABLE', 'The conversation could not be saved; try again shortly.', {
        retryAfterSeconds: 5,
        cause: error,
      });
    }
  }
}
