// The agents runtime: declarations' registry, buffered invocation, streaming turns with tools, approvals.
export {
  AgentsBackendService,
  budgetTenantOfInitiator,
  type AgentInvocationResult,
  type CodingAgentInvocationOptions,
  type InvokeAgentOptions,
} from './runtime/agents-backend.service.js';
export {
  AgentsRegistry,
  isLanguageOperation,
  type AgentModelResolver,
  type ResolvedAgent,
} from './systems/agents-registry.service.js';
export { catalogueModelResolver } from './systems/agent-model-resolver.js';
export {
  defineActorSystem,
  defineChatAgent,
  type AccessRule,
  type ActorSystemDefinition,
  type ActorSystemHandle,
  type ChatAgent,
  type ChatAgentDefinition,
  type ChatModelOf,
  type ChatProviderRef,
  type SystemActorDefinition,
} from './systems/define-agent.js';
export { agentsContainerModule, agentsModule } from './agents.module.js';
export { createAgentsRouter, type AgentsRouterOptions } from './agents.routes.js';
export { AgentCallRecorder, type AgentCallReport } from './runtime/agent-call-recorder.js';
export {
  APPROVAL_LIFETIME_MS,
  ApprovalService,
  ownerKeyOf,
  type AppliedDecision,
  type ApprovalDecision,
  type PendingApproval,
} from './approvals/approval.service.js';
export { admitBudget } from './budgets/budget-admission.js';
export {
  ConversationService,
  DEFAULT_MAX_TOOL_STEPS,
  HISTORY_WINDOW,
  MAX_TOOL_RESULT_CHARS,
  MAX_USER_MESSAGE_CHARS,
  type ConversationTranscript,
  type ResumeTurnRequest,
  type StartTurnRequest,
} from './runtime/conversation.service.js';
export {
  ConversationStore,
  type Execution,
  type ExecutionOwner,
  type ExecutionStatus,
} from './runtime/conversation.store.js';
export type { TurnCompletion, TurnEvent } from './runtime/turn-events.js';
export type { ToolOutcome } from './tools/turn-tools.js';
export { ExternalMcpConnector, type ExternalMcpSession } from './external-mcp/external-mcp.service.js';
export type {
  ExternalMcpCallResult,
  ExternalMcpServerDefinition,
  ExternalMcpTool,
} from './external-mcp/external-mcp.types.js';
export {
  ActorSystemAccess,
  budgetTenantOf,
  type SystemAccessRequest,
  type SystemAdmission,
} from './systems/actor-system-access.service.js';
export type {
  FunctionTool,
  FunctionToolExecutionContext,
  FunctionToolResourceOperation,
} from './tools/function-tool.types.js';
export {
  READ_TOOL_MAX_RECORDS,
  resourceReadTool,
  resourceWriteTool,
  type ResourceWriteToolOptions,
} from './tools/resource-tools.js';
export {
  createToolCaller,
  type ToolCallIdentity,
  type ToolCaller,
  type ToolCallResult,
  type ToolDispatchPath,
  type ToolListOptions,
  type ToolOperationCall,
  type ToolRecordPage,
  type ToolRecords,
  toolDispatchPath,
} from './tools/tool-caller.js';
export { createToolExecutionContext, type ToolCallSite } from './tools/tool-execution-context.js';
