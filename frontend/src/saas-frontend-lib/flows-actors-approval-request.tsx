import { ApprovalCard } from '../assistant/approval-card';
import { useFlowsActors } from './flows-actors.context';

/** Props of {@link FlowsActors_ApprovalRequest}, as the guide writes them. */
export interface FlowsActors_ApprovalRequestProps {
  /** The conversation whose pending decision is shown. */
  executionId: string;
  /**
   * Whether the person may edit the arguments before approving (default true). It can only narrow what the tool
   * allows: a tool that refuses modified arguments stays read-only.
   */
  allowArgumentModification?: boolean;
}

/**
 * The pending decision of one conversation, beside its messages: the paused call's function, arguments and
 * expiry, with approve and deny. Reads the decision and the response function from the flows-actors context;
 * renders nothing when that conversation waits for no decision.
 *
 * @example
 * <FlowsActors_ApprovalRequest executionId={executionId} allowArgumentModification={false} />
 */
export function FlowsActors_ApprovalRequest({
  executionId,
  allowArgumentModification = true,
}: FlowsActors_ApprovalRequestProps) {
  const { state, decide } = useFlowsActors();
  const approval = state.approval;
  if (!approval || approval.executionId !== executionId) return null;
  const shown = {
    ...approval,
    allowArgumentModification: approval.allowArgumentModification && allowArgumentModification,
  };
  return (
    <ApprovalCard
      key={approval.approvalId}
      approval={shown}
      busy={state.streaming}
      onDecide={(decision, modifiedArguments) => void decide(approval, decision, modifiedArguments)}
    />
  );
}
