// Coding agents over the Agent Client Protocol: declaration, dispatch, the guarded client callbacks, runs and sessions.
export { CodingAgentService, type CodingAgentServiceDeps } from './coding-agent.service.js';
export { DEFAULT_CODING_TIMING, type CodingAgentLauncher, type CodingAgentSettings } from './coding-agent.types.js';
export { BASE_PASSED_ENV } from './coding-agent.process.js';
export { BUILT_IN_CODING_AGENT_LAUNCHERS, CLAUDE_AGENT_ACP_PACKAGE } from './coding-launchers.js';
export {
  CodingLocationGuard,
  type CodingLocationDecision,
  type CodingLocationPredicate,
} from './coding-location.guard.js';
export { CEILING_TOOL_KINDS, ceilingAdmits } from './coding-permission.policy.js';
export { AUTO_CONTINUATION_PROMPT } from './coding-run.js';
export { MAX_RECORD_ENTRIES, type CodingProgressListener } from './coding-run.events.js';
export {
  CodingRunStore,
  type CodingRunStatus,
  type CodingSessionStatus,
  type StoredCodingRun,
  type StoredCodingSession,
} from './coding-run.store.js';
export { codingAgentsContainerModule, codingAgentsModule, type CodingAgentRuntimeOptions } from './coding.module.js';
export { CODING_TYPES } from './coding.tokens.js';
export {
  defineCodingAgent,
  type CodingAgentBinding,
  type CodingAgentOptions,
  type CodingProviderRef,
} from './define-coding-agent.js';
