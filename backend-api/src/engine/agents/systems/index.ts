// Agents and actor systems: declarations (defineChatAgent, defineActorSystem), their registry, who may talk to them.
export {
  type AgentModelResolver,
  AgentsRegistry,
  isLanguageOperation,
  type ResolvedAgent,
} from './agents-registry.service.js';
export type { FlowsActorsApplication, FlowsActorsContribution, FlowsActorsModule } from './flows-actors-module.js';
export {
  ActorSystemAccess,
  budgetTenantOf,
  type SystemAccessRequest,
  type SystemAdmission,
} from './actor-system-access.service.js';
export { catalogueModelResolver } from './agent-model-resolver.js';
export {
  accessControlOf,
  type AccessRule,
  type ActorSystemDefinition,
  type ActorSystemHandle,
  type ChatAgent,
  type ChatAgentDefinition,
  type ChatModelOf,
  type ChatProviderRef,
  defineActorSystem,
  defineChatAgent,
  type SystemActorDefinition,
} from './define-agent.js';
export { agentProviderWarnings } from './agent-readiness.js';
export { CODING_AGENT_DEFAULT_MODEL, isCodingAgent, registerCodingAgent } from './coding-agents.js';
export { listAgentTools } from './agent-tool-listing.js';
