// The guide's custom review surface ("Compose review into a custom surface"), written against the library entry
// exactly as an application would: the conversation's decision beside its messages, read-only arguments, and
// the queue of outstanding decisions across conversations. flows-actors.guide.test.tsx renders it.
import { FlowsActors_ApprovalQueue, FlowsActors_ApprovalRequest, useFlowsActors } from '@wildo-ai/saas-frontend-lib';

/** The guide's example, verbatim. */
export function ConversationDecision({ executionId }: { executionId: string }) {
  return <FlowsActors_ApprovalRequest executionId={executionId} allowArgumentModification={false} />;
}

/** A custom screen inside the flows-actors context: the active conversation's decision, and the queue. */
export function CustomReviewScreen() {
  const { state } = useFlowsActors();
  return (
    <div>
      {state.executionId ? <ConversationDecision executionId={state.executionId} /> : null}
      <aside aria-label="Elsewhere">
        <FlowsActors_ApprovalQueue />
      </aside>
    </div>
  );
}
