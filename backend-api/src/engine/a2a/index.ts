// The A2A resource server: agent cards, both dialects on one JSON-RPC endpoint, tasks, streams, push, cancellation.
export {
  A2aAgentDirectory,
  a2aInstanceProblems,
  describeA2aAgents,
  type A2aAgent,
  type A2aAgentExposure,
  type A2aSkill,
} from './a2a-agents.js';
export { A2A_PROTOCOL_VERSIONS, type A2aDialect, type A2aTaskState } from './a2a-protocol.js';
export { DEFAULT_PUSH_RETRY, type A2aPushRetryPolicy } from './a2a-jobs.js';
export type { A2aPushDelivery } from './a2a-push.service.js';
export type { A2aTask } from './a2a-task.types.js';
export {
  a2aModule,
  A2aRuntime,
  createA2aRuntime,
  DEFAULT_MAX_PUSH_CONFIGS_PER_TASK,
  type A2aSettings,
} from './a2a.module.js';
export { createA2aRouter, createA2aWellKnownRouter } from './a2a.routes.js';
