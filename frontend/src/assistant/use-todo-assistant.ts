import type { FlowsActors_ApprovalRequest, FlowsActors_ToolOutcome, FlowsActors_TurnEvent } from '@wildo/shared-lib';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError, describeFailure, isAbortError } from '../api/api.client';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import { streamDecision, streamTurn, type TurnStreamOptions } from './assistant.client';
import { loadConversation, rememberConversation } from './conversations';

/** One line of the conversation as the page shows it. */
export type TranscriptEntry =
  | {
      kind: 'user';
      id: string;
      text: string;
      /** Set when the message was refused before the assistant got it (budget, role): it was not sent. */
      notSent?: string;
    }
  | { kind: 'assistant'; id: string; text: string }
  | {
      kind: 'tool';
      id: string;
      functionRef: string;
      arguments: Record<string, unknown>;
      outcome?: FlowsActors_ToolOutcome;
      decision?: 'approve' | 'deny';
      /** True while the call waits for the person's approval. */
      waiting?: boolean;
    };

/** The conversation with the assistant, as streamed so far. */
export interface AssistantState {
  executionId: string | null;
  entries: TranscriptEntry[];
  /** The paused call waiting for the person's decision, if any. */
  approval: FlowsActors_ApprovalRequest | null;
  streaming: boolean;
  /** True once the current stream reported `turn_completed`. */
  completed: boolean;
  /** A short message for the live status region. */
  notice: string;
  /** The server's (or client's) client-safe message of the last failure. */
  error: string | null;
}

type Action =
  | { type: 'started'; userMessage?: string }
  | { type: 'event'; event: FlowsActors_TurnEvent }
  | { type: 'finished' }
  | { type: 'failed'; message: string; dropApproval?: boolean; refusedMessage?: boolean }
  | { type: 'reopened'; executionId: string; entries: TranscriptEntry[]; approval: FlowsActors_ApprovalRequest | null }
  | { type: 'new_conversation' }
  | { type: 'approval_opened'; approval: FlowsActors_ApprovalRequest };

const INITIAL: AssistantState = {
  executionId: null,
  entries: [],
  approval: null,
  streaming: false,
  completed: false,
  notice: '',
  error: null,
};

let entrySequence = 0;
const nextId = (prefix: string) => `${prefix}-${++entrySequence}`;

function updateTool(
  entries: TranscriptEntry[],
  toolCallId: string,
  change: (entry: Extract<TranscriptEntry, { kind: 'tool' }>) => TranscriptEntry,
): TranscriptEntry[] {
  return entries.map((entry) => (entry.kind === 'tool' && entry.id === toolCallId ? change(entry) : entry));
}

function applyEvent(state: AssistantState, event: FlowsActors_TurnEvent): AssistantState {
  switch (event.type) {
    case 'execution':
      return { ...state, executionId: event.executionId };
    case 'text_delta': {
      const last = state.entries.at(-1);
      if (last?.kind === 'assistant')
        return { ...state, entries: [...state.entries.slice(0, -1), { ...last, text: last.text + event.text }] };
      return {
        ...state,
        entries: [...state.entries, { kind: 'assistant', id: nextId('assistant'), text: event.text }],
      };
    }
    case 'tool_call': {
      const known = state.entries.some((entry) => entry.kind === 'tool' && entry.id === event.toolCallId);
      const entries = known
        ? updateTool(state.entries, event.toolCallId, (entry) => ({ ...entry, arguments: event.arguments }))
        : [
            ...state.entries,
            { kind: 'tool' as const, id: event.toolCallId, functionRef: event.functionRef, arguments: event.arguments },
          ];
      return { ...state, entries };
    }
    case 'tool_result': {
      const known = state.entries.some((entry) => entry.kind === 'tool' && entry.id === event.toolCallId);
      const entries = known
        ? updateTool(state.entries, event.toolCallId, (entry) => ({ ...entry, outcome: event.outcome }))
        : [
            ...state.entries,
            {
              kind: 'tool' as const,
              id: event.toolCallId,
              functionRef: event.functionRef,
              arguments: {},
              outcome: event.outcome,
            },
          ];
      return { ...state, entries };
    }
    case 'approval_required':
      return {
        ...state,
        approval: event.approval,
        executionId: event.approval.executionId,
        entries: updateTool(state.entries, event.approval.toolCallId, (entry) => ({ ...entry, waiting: true })),
      };
    case 'approval_decided':
      return {
        ...state,
        approval: state.approval?.approvalId === event.approvalId ? null : state.approval,
        entries: updateTool(state.entries, event.toolCallId, (entry) => ({
          ...entry,
          decision: event.decision,
          arguments: event.arguments,
          waiting: false,
        })),
      };
    case 'turn_completed':
      return {
        ...state,
        completed: true,
        notice:
          event.status === 'awaiting_approval'
            ? 'The assistant is waiting for your approval.'
            : event.status === 'max_steps'
              ? 'The assistant stopped after its step limit.'
              : 'The assistant finished replying.',
      };
    case 'error':
      return { ...state, error: event.error.message };
  }
}

function reducer(state: AssistantState, action: Action): AssistantState {
  switch (action.type) {
    case 'started':
      return {
        ...state,
        streaming: true,
        completed: false,
        error: null,
        notice: 'The assistant is replying…',
        entries:
          action.userMessage === undefined
            ? state.entries
            : [...state.entries, { kind: 'user', id: nextId('user'), text: action.userMessage }],
      };
    case 'event':
      return applyEvent(state, action.event);
    case 'finished':
      if (state.completed || state.error)
        return { ...state, streaming: false, notice: state.error ? '' : state.notice };
      return { ...state, streaming: false, notice: '', error: 'The reply ended before it was complete. Try again.' };
    case 'failed': {
      const last = state.entries.at(-1);
      // A message refused before the assistant got it is marked as not sent, with the reason beside it.
      if (action.refusedMessage && last?.kind === 'user')
        return {
          ...state,
          streaming: false,
          notice: '',
          entries: [...state.entries.slice(0, -1), { ...last, notSent: action.message }],
        };
      return {
        ...state,
        streaming: false,
        notice: '',
        error: action.message,
        approval: action.dropApproval ? null : state.approval,
      };
    }
    case 'reopened':
      return { ...INITIAL, executionId: action.executionId, entries: action.entries, approval: action.approval };
    case 'new_conversation':
      return INITIAL;
    case 'approval_opened':
      return { ...state, approval: action.approval, executionId: action.approval.executionId, error: null };
  }
}

/** The todo assistant's conversation in one organization: send messages, decide approvals, all streamed. */
export function useTodoAssistant(target: { organizationId: string; systemRef: string }) {
  const [state, dispatch] = useReducer(reducer, INITIAL);
  const controllerRef = useRef<AbortController | null>(null);
  const { organizationId, systemRef } = target;

  // Leaving the page ends any stream in progress (the backend then aborts the turn).
  useEffect(() => () => controllerRef.current?.abort(), []);

  const run = useCallback(
    async (
      call: (options: TurnStreamOptions) => Promise<void>,
      context: { userMessage?: string; deciding?: boolean } = {},
    ): Promise<boolean> => {
      const { userMessage } = context;
      const accessToken = readAccessToken();
      if (!accessToken) {
        redirectToLogin();
        return false;
      }
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      dispatch(userMessage === undefined ? { type: 'started' } : { type: 'started', userMessage });
      try {
        await call({
          accessToken,
          signal: controller.signal,
          onEvent: (event) => {
            if (!controller.signal.aborted) dispatch({ type: 'event', event });
          },
        });
        if (!controller.signal.aborted) dispatch({ type: 'finished' });
        return true;
      } catch (error) {
        if (controller.signal.aborted || isAbortError(error)) return false;
        if (error instanceof ApiError && error.isUnauthenticated) {
          redirectToLogin({ tokenRefused: true });
          return false;
        }
        // A decision the backend will never accept (expired, already decided, no longer yours) leaves nothing to decide.
        const dropApproval =
          context.deciding === true && error instanceof ApiError && [403, 404, 409].includes(error.status);
        // Refused before any event (budget, role, a busy conversation): the message never reached the assistant.
        const refusedMessage = userMessage !== undefined && error instanceof ApiError && error.status !== 0;
        dispatch({ type: 'failed', message: describeFailure(error), dropApproval, refusedMessage });
        return false;
      } finally {
        if (controllerRef.current === controller) controllerRef.current = null;
      }
    },
    [],
  );

  const send = useCallback(
    (message: string) =>
      run(
        (options) =>
          streamTurn(
            { organizationId, systemRef },
            state.executionId ? { message, executionId: state.executionId } : { message },
            options,
          ),
        { userMessage: message },
      ),
    [run, organizationId, systemRef, state.executionId],
  );

  const decide = useCallback(
    (
      approval: FlowsActors_ApprovalRequest,
      decision: 'approve' | 'deny',
      modifiedArguments?: Record<string, unknown>,
    ) =>
      run(
        (options) =>
          streamDecision(approval, modifiedArguments ? { decision, modifiedArguments } : { decision }, options),
        { deciding: true },
      ),
    [run],
  );

  // Each new conversation is listed (by its first message) so it can be reopened after a reload.
  const firstMessage = state.entries.find((entry) => entry.kind === 'user')?.text;
  useEffect(() => {
    if (state.executionId && firstMessage)
      rememberConversation(organizationId, systemRef, {
        executionId: state.executionId,
        title: firstMessage,
        startedAt: new Date().toISOString(),
      });
  }, [state.executionId, firstMessage, organizationId, systemRef]);

  const reopen = useCallback(
    async (executionId: string, pending: FlowsActors_ApprovalRequest[] = []): Promise<void> => {
      const accessToken = readAccessToken();
      if (!accessToken) {
        redirectToLogin();
        return;
      }
      controllerRef.current?.abort();
      try {
        const conversation = await loadConversation(executionId, accessToken);
        const approval = pending.find((item) => item.executionId === executionId) ?? null;
        const entries = approval
          ? conversation.entries.map((entry) =>
              entry.kind === 'tool' && entry.id === approval.toolCallId ? { ...entry, waiting: true } : entry,
            )
          : conversation.entries;
        dispatch({ type: 'reopened', executionId, entries, approval });
      } catch (error) {
        dispatch({ type: 'failed', message: describeFailure(error) });
      }
    },
    [],
  );

  const startNew = useCallback(() => {
    controllerRef.current?.abort();
    dispatch({ type: 'new_conversation' });
  }, []);

  const openApproval = useCallback(
    (approval: FlowsActors_ApprovalRequest) => dispatch({ type: 'approval_opened', approval }),
    [],
  );

  return { state, send, decide, openApproval, reopen, startNew };
}
