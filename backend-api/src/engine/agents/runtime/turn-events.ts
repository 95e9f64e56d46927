import type { AgentCallUsage } from '@wildo/shared-lib';
import type { PendingApproval } from '../approvals/index.js';
import type { ToolOutcome } from '../tools/index.js';

/** How a turn ended: the model stopped, a call waits for a person, or the step bound was reached. */
export type TurnCompletion = 'completed' | 'awaiting_approval' | 'max_steps';

/**
 * What a turn streams to the browser, in order. `execution` comes first (the id to continue with);
 * `turn_completed` last. Failures after the first event arrive as an `error` event from the route.
 */
export type TurnEvent =
  | { type: 'execution'; executionId: string; systemRef: string; agentRef: string }
  | { type: 'text_delta'; text: string }
  | { type: 'tool_call'; toolCallId: string; functionRef: string; arguments: Record<string, unknown> }
  | { type: 'tool_result'; toolCallId: string; functionRef: string; outcome: ToolOutcome }
  | { type: 'approval_required'; approval: PendingApproval }
  | {
      type: 'approval_decided';
      approvalId: string;
      toolCallId: string;
      decision: 'approve' | 'deny';
      arguments: Record<string, unknown>;
    }
  | { type: 'turn_completed'; status: TurnCompletion; usage: AgentCallUsage };
