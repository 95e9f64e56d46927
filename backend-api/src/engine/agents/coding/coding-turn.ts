import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  PromptResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionNotification,
} from '@agentclientprotocol/sdk';
import {
  CodingAgent_StopReason,
  type AgentCallUsage,
  type AgentClientProtocol_PermissionCeiling,
} from '@wildo/shared-lib';
import type { CodingLocationGuard } from './coding-location.guard.js';
import {
  ACP_STOP_REASONS,
  answerPermission,
  CANCELLED_PERMISSION,
  ceilingAdmits,
  type PermissionAnswer,
} from './coding-permission.policy.js';
import { tail, type CodingRunEvents, MAX_EVENT_TEXT } from './coding-run.events.js';

/** Why a turn was cancelled by the runner. */
export type TurnCancellation = 'timeout' | 'aborted' | 'parked';

/** How a turn ended. */
export interface TurnEnd {
  stopReason: CodingAgent_StopReason;
  /** The agent's text of the turn. */
  text: string;
  /** The agent's question, when it asked a person (the turn was cancelled to park the run). */
  question?: string;
  cancelled?: TurnCancellation;
  usage?: AgentCallUsage;
}

/** Text an agent may stream in one turn; beyond it only the end is kept (the final message is the end of it). */
const MAX_TURN_TEXT = 256 * 1024;

/**
 * The state of one prompt turn and the client's answers while it runs: session updates become progress events,
 * permission requests are answered by the ceiling and the location guard, and a question to a person (an
 * elicitation) parks the run. Cancelling the turn sends the protocol's cancel notification and answers every
 * pending permission request `cancelled`, as the protocol requires.
 */
export class CodingTurn {
  private text = '';
  private question: string | undefined;
  private cancellation: TurnCancellation | undefined;
  private readonly pending = new Set<(answer: PermissionAnswer) => void>();
  private giveUp: (() => void) | undefined;
  private readonly gaveUp: Promise<void>;

  constructor(
    private readonly sessionId: string,
    private readonly ceiling: AgentClientProtocol_PermissionCeiling,
    private readonly guard: CodingLocationGuard,
    private readonly events: CodingRunEvents,
    private readonly sendCancel: () => Promise<void>,
  ) {
    this.gaveUp = new Promise((resolve) => (this.giveUp = resolve));
  }

  /** Why the turn was cancelled, if it was. */
  get cancelled(): TurnCancellation | undefined {
    return this.cancellation;
  }

  /**
   * Waits for the turn's response; after a cancellation, for `graceMs` at most (an agent that does not stop is
   * then ended with its subprocess). `exited` settles when the subprocess ends.
   */
  async settle(response: Promise<PromptResponse>, exited: Promise<unknown>, graceMs: number): Promise<TurnEnd> {
    let timer: NodeJS.Timeout | undefined;
    const expired = this.gaveUp.then(
      () => new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), graceMs))),
    );
    try {
      const first = await Promise.race([
        response.then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
        exited.then(() => ({ error: new AgentExitedError() })),
        expired,
      ]);
      // A cancelled turn ends as cancelled whatever the agent did next; an uncancelled one needs its response.
      if (typeof first === 'object' && 'error' in first && !this.cancellation) {
        throw first.error instanceof AgentExitedError ? first.error : new AgentExitedError(first.error);
      }
      return this.end(typeof first === 'object' && 'value' in first ? first.value : undefined);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Cancels the turn (once): the protocol's cancel notification, then every pending permission answered cancelled. */
  cancel(why: TurnCancellation): void {
    if (this.cancellation) return;
    this.cancellation = why;
    void this.sendCancel();
    for (const answer of [...this.pending]) answer(CANCELLED_PERMISSION);
    this.pending.clear();
    this.giveUp?.();
  }

  /** `session/update`: progress events for the live turn (a replayed history has no turn and is not re-emitted). */
  update(notification: SessionNotification): void {
    if (notification.sessionId !== this.sessionId) return;
    const update = notification.update;
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') {
          this.text = tail(this.text + update.content.text, MAX_TURN_TEXT);
          this.events.emit({ type: 'message', text: update.content.text });
        }
        return;
      case 'agent_thought_chunk':
        if (update.content.type === 'text') this.events.emit({ type: 'thought', text: update.content.text });
        return;
      case 'tool_call':
      case 'tool_call_update':
        this.events.emit({
          type: 'tool_call',
          toolCallId: String(update.toolCallId),
          ...(typeof update.title === 'string' ? { title: tail(update.title, 500) } : {}),
          ...(typeof update.kind === 'string' ? { kind: update.kind } : {}),
          ...(typeof update.status === 'string' ? { status: update.status } : {}),
          locations: locationsOf(update.locations),
        });
        return;
      case 'plan':
        this.events.emit({
          type: 'plan',
          entries: update.entries.map((entry) => ({
            content: tail(String(entry.content), 500),
            status: String(entry.status),
          })),
        });
        return;
      default:
        return;
    }
  }

  /** `session/request_permission`: the ceiling admits the tool category and the guard every location, or it is refused. */
  async permission(params: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    const kind = typeof params.toolCall.kind === 'string' ? params.toolCall.kind : 'other';
    const locations = locationsOf(params.toolCall.locations);
    const answer = this.cancellation
      ? CANCELLED_PERMISSION
      : await new Promise<PermissionAnswer>((resolve) => {
          this.pending.add(resolve);
          void this.judge(params, kind, locations).then((decided) => {
            if (this.pending.delete(resolve)) resolve(decided);
          });
        });
    this.events.emit({
      type: 'permission',
      toolCallId: String(params.toolCall.toolCallId),
      kind,
      ...(typeof params.toolCall.title === 'string' ? { title: tail(params.toolCall.title, 500) } : {}),
      locations,
      options: params.options.map((option) => ({ optionId: option.optionId, kind: option.kind })),
      decision: answer.decision,
      ...(answer.optionId ? { optionId: answer.optionId } : {}),
      ...(answer.reason ? { reason: answer.reason } : {}),
    });
    return { outcome: answer.outcome };
  }

  /** `elicitation/create`: the agent asks a person; the run parks with the question and the turn is cancelled. */
  elicitation(params: CreateElicitationRequest): Promise<CreateElicitationResponse> {
    if (!this.cancellation) {
      this.question = tail(String(params.message), MAX_EVENT_TEXT);
      this.events.emit({ type: 'awaiting_input', question: this.question });
      this.cancel('parked');
    }
    return Promise.resolve({ action: 'cancel' });
  }

  private async judge(params: RequestPermissionRequest, kind: string, locations: string[]): Promise<PermissionAnswer> {
    if (!ceilingAdmits(this.ceiling, kind))
      return answerPermission(params.options, { allow: false, reason: 'above_ceiling' });
    for (const location of locations) {
      const decision = await this.guard.check(location);
      if (!decision.ok) return answerPermission(params.options, { allow: false, reason: decision.reason });
    }
    return answerPermission(params.options, { allow: true });
  }

  private end(response: PromptResponse | undefined): TurnEnd {
    const usage = usageOf(response);
    const common = { text: this.text, ...(usage ? { usage } : {}) };
    if (this.cancellation === 'parked') {
      return {
        ...common,
        stopReason: CodingAgent_StopReason.PARKED,
        question: this.question ?? '',
        cancelled: 'parked',
      };
    }
    if (this.cancellation === 'timeout') {
      return { ...common, stopReason: CodingAgent_StopReason.TURN_TIMEOUT, cancelled: 'timeout' };
    }
    if (this.cancellation === 'aborted')
      return { ...common, stopReason: CodingAgent_StopReason.CANCELLED, cancelled: 'aborted' };
    const stopReason = response ? ACP_STOP_REASONS[response.stopReason] : undefined;
    if (!stopReason) throw new AgentExitedError();
    return { ...common, stopReason };
  }
}

/** The subprocess ended (or broke the connection) in the middle of a turn nobody cancelled. */
export class AgentExitedError extends Error {
  override readonly name = 'AgentExitedError';
  constructor(cause?: unknown) {
    super('the coding agent exited or broke the connection in the middle of a turn', { cause });
  }
}

function locationsOf(locations: readonly { path?: unknown }[] | null | undefined): string[] {
  return (locations ?? []).slice(0, 50).map((location) => String(location.path));
}

/** Token usage when the agent reports it with the response (an unstable protocol field some agents send). */
function usageOf(response: PromptResponse | undefined): AgentCallUsage | undefined {
  const usage = (response as { usage?: Partial<AgentCallUsage> } | undefined)?.usage;
  if (!usage || typeof usage.inputTokens !== 'number' || typeof usage.outputTokens !== 'number') return undefined;
  const totalTokens =
    typeof usage.totalTokens === 'number' ? usage.totalTokens : usage.inputTokens + usage.outputTokens;
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens };
}
