// The agents' runtime: conversations, streaming turns with tools, buffered invocation (AgentsBackendService).
export {
  ConversationService,
  type ConversationTranscript,
  DEFAULT_MAX_TOOL_STEPS,
  HISTORY_WINDOW,
  MAX_TOOL_RESULT_CHARS,
  MAX_USER_MESSAGE_CHARS,
  type ResumeTurnRequest,
  type StartTurnRequest,
} from './conversation.service.js';
export {
  ConversationStore,
  type Execution,
  type ExecutionOwner,
  type ExecutionStatus,
  type TurnEndRow,
} from './conversation.store.js';
export type { TurnCompletion, TurnEvent } from './turn-events.js';
export { AgentCallRecorder, type AgentCallReport } from './agent-call-recorder.js';
export {
  type AgentInvocationResult,
  AgentsBackendService,
  budgetTenantOfInitiator,
  type InvokeAgentOptions,
} from './agents-backend.service.js';
export {
  CODING_AGENT_ARM,
  CODING_AGENT_OPTIONS,
  type CodingAgentArm,
  type CodingAgentInvocationOptions,
  type CodingDispatch,
  type CodingDispatchResult,
  type CodingTurnClassifier,
  type CodingTurnSummary,
  type CodingTurnVerdict,
} from './coding-arm.js';
