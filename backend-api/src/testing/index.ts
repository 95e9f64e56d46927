// `@wildo/backend-api/testing`: develop and test agents without a provider account. Local Anthropic and OpenAI
// stand-ins (scripted, or the echo model `wildo dev --stub-models` runs), reply builders, the names a model sees
// for tools, a client that reads a streamed turn and decides its approvals, a scripted ACP coding agent, and the
// leak checker that proves no undeclared field or value reaches an answer.
export { modelToolName, modelToolNames } from '../engine/agents/systems/agent-tool-listing.js';
export { expectNoLeaks, findLeaks, type Leak, type LeakRules } from './leak-checker.js';
export { TEST_PASSWORD_HASHING } from './password-hashing.js';
export {
  ACP_STUB_AGENT_PATH,
  acpStubLauncher,
  acpStubScript,
  isProcessRunning,
  type AcpStubLauncherOptions,
  type AcpStubStep,
} from './coding-stubs/index.js';
export { signUpThroughOutbox, type DevelopmentAccount, type DevelopmentSignUp } from './development-accounts.js';
export type { PendingApproval } from '../engine/agents/approvals/approval.service.js';
export type { TurnCompletion, TurnEvent } from '../engine/agents/runtime/turn-events.js';
export {
  AnthropicStub,
  deferred,
  errorReply,
  OpenAIStub,
  ScriptedStubServer,
  structuredReply,
  textReply,
  toolCallsReply,
  type Deferred,
  type StubErrorReply,
  type StubMessageReply,
  type StubReply,
  type StubReplyScript,
  type StubRequest,
  type StubToolCall,
  type StubUsage,
} from './llm-stubs/index.js';
export {
  describeModelRequest,
  startStubModels,
  stubModelReply,
  type ModelRequestView,
  type StubModels,
  type StubModelScript,
  type StubModelsOptions,
  type StubVendor,
} from './stub-models.js';
export {
  decideApproval,
  parseTurnStream,
  pendingApprovalsOf,
  postTurn,
  type TurnClientOptions,
  type TurnResult,
} from './turn-stream.js';
