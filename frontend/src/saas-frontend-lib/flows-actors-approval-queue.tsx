import { ApprovalsQueue } from '../assistant/approvals-queue';
import { useFlowsActors } from './flows-actors.context';

/** Props of {@link FlowsActors_ApprovalQueue}. */
export interface FlowsActors_ApprovalQueueProps {
  /** Called after an approval is opened from the queue (for example to move focus to the conversation). */
  onOpen?: (approvalId: string) => void;
}

/**
 * The person's outstanding decisions across conversations; opening one brings it into the flows-actors
 * context's conversation for a decision. Reloads after each turn and decision.
 *
 * @example
 * <FlowsActors_ApprovalQueue />
 */
export function FlowsActors_ApprovalQueue({ onOpen }: FlowsActors_ApprovalQueueProps = {}) {
  const { state, openApproval, approvalsVersion } = useFlowsActors();
  return (
    <ApprovalsQueue
      reloadKey={approvalsVersion}
      currentApprovalId={state.approval?.approvalId ?? null}
      disabled={state.streaming}
      onReview={(approval) => {
        openApproval(approval);
        onOpen?.(approval.approvalId);
      }}
    />
  );
}
