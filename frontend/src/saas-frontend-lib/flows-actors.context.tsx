import type { FlowsActors_ApprovalRequest } from '@wildo/shared-lib';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useTodoAssistant, type AssistantState } from '../assistant/use-todo-assistant';

/** What the flows-actors components read: the conversation, its pending decision and the actions on them. */
export interface FlowsActorsContextValue {
  organizationId: string;
  systemRef: string;
  state: AssistantState;
  /** Sends a message (continuing the conversation's `executionId` when there is one). */
  send: (message: string) => Promise<boolean>;
  /** Decides a pending approval; the turn continues in the stream. */
  decide: (
    approval: FlowsActors_ApprovalRequest,
    decision: 'approve' | 'deny',
    modifiedArguments?: Record<string, unknown>,
  ) => Promise<boolean>;
  /** Brings a pending approval (from the queue) into the conversation for a decision. */
  openApproval: (approval: FlowsActors_ApprovalRequest) => void;
  /** Changes whenever the pending approvals may have changed (a turn ended, a decision was made). */
  approvalsVersion: number;
  /** Reopens a stored conversation of the caller (its pending approval, if listed in `pending`, with it). */
  reopen: (executionId: string, pending?: FlowsActors_ApprovalRequest[]) => Promise<void>;
  /** Leaves the current conversation for a new one. */
  startNew: () => void;
}

const FlowsActorsContext = createContext<FlowsActorsContextValue | null>(null);

/** Props of {@link FlowsActorsProvider}. */
export interface FlowsActorsProviderProps {
  /** The organization the conversation works in (views whose `primaryScope` is ORGANIZATIONS). */
  organizationId: string;
  /** The actor system to talk to (a view's `systemRef`). */
  systemRef: string;
  children: ReactNode;
}

/**
 * The flows-actors context: one conversation with an actor system and its approvals, for
 * `FlowsActors_ApprovalRequest`, `FlowsActors_ApprovalQueue` and custom surfaces (`useFlowsActors`).
 *
 * @example
 * <FlowsActorsProvider organizationId={orgId} systemRef="todo-assistant">
 *   <FlowsActors_ApprovalQueue />
 * </FlowsActorsProvider>
 */
export function FlowsActorsProvider({ organizationId, systemRef, children }: FlowsActorsProviderProps) {
  const { state, send, decide, openApproval, reopen, startNew } = useTodoAssistant({ organizationId, systemRef });
  const [approvalsVersion, setApprovalsVersion] = useState(0);
  const sendAndRefresh = useCallback(
    async (message: string) => {
      const ok = await send(message);
      setApprovalsVersion((n) => n + 1);
      return ok;
    },
    [send],
  );
  const decideAndRefresh = useCallback<FlowsActorsContextValue['decide']>(
    async (approval, decision, modifiedArguments) => {
      const ok = await decide(approval, decision, modifiedArguments);
      setApprovalsVersion((n) => n + 1);
      return ok;
    },
    [decide],
  );
  const value = useMemo<FlowsActorsContextValue>(
    () => ({
      organizationId,
      systemRef,
      state,
      send: sendAndRefresh,
      decide: decideAndRefresh,
      openApproval,
      approvalsVersion,
      reopen,
      startNew,
    }),
    [
      organizationId,
      systemRef,
      state,
      sendAndRefresh,
      decideAndRefresh,
      openApproval,
      approvalsVersion,
      reopen,
      startNew,
    ],
  );
  return <FlowsActorsContext.Provider value={value}>{children}</FlowsActorsContext.Provider>;
}

/** The flows-actors context; throws outside a {@link FlowsActorsProvider} (a component there has nothing to show). */
export function useFlowsActors(): FlowsActorsContextValue {
  const value = useContext(FlowsActorsContext);
  if (!value) throw new Error('Flows-actors components must be rendered inside <FlowsActorsProvider>.');
  return value;
}
