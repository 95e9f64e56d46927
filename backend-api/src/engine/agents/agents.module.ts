import { ContainerModule, type ResolutionContext } from 'inversify';
import { SAAS_SERVICE_TYPES as T, type Clock } from '../container/index.js';
import { ActorSystemAccess, type AgentsRegistry, type FlowsActorsModule } from './systems/index.js';
import type { Logger } from '../logging/index.js';
import type { AgentTraceSink } from '../observability/index.js';
import type { ExecutionContextCreator, OperationDispatcher, ResourcesRegistry } from '../resources/index.js';
import type { RoleHierarchyResolver } from '../identity/index.js';
import {
  AgentCallRecorder,
  AgentsBackendService,
  CODING_AGENT_ARM,
  ConversationService,
  ConversationStore,
  type CodingAgentArm,
} from './runtime/index.js';
import { AGENTS_MIGRATIONS } from './agents.migrations.js';
import { ApprovalService } from './approvals/index.js';
import { CachedBudgetAdmission, type TokenBudgetService } from './budgets/index.js';
import type { ExternalMcpConnector } from './external-mcp/index.js';
import type { ProviderRegistry } from './providers/index.js';
import { toolDispatchPath } from './tools/index.js';
// Installs how resource tools (`resourceReadTool`, a handle's `tools`) run, wherever the engine is loaded from.
import './tools/index.js';

const get = <V>(ctx: ResolutionContext, token: symbol) => ctx.get<V>(token);

/** The coding arm of `invokeAgent`, when the coding-agent module is loaded. */
function codingArm(ctx: ResolutionContext): { coding?: CodingAgentArm } {
  const coding = ctx.get<CodingAgentArm>(CODING_AGENT_ARM, { optional: true });
  return coding ? { coding } : {};
}

/**
 * Binds the agents runtime: approvals, conversations, the streaming turn service and `AgentsBackendService`.
 * It needs `AgentsRegistry`, `LLMProviderRegistry`, `AgentTraceSink` and `ExternalMcpConnector`, which
 * `createWildoBackend` builds from the application, the runtime configuration and the environment.
 */
export const agentsContainerModule = new ContainerModule(({ bind }) => {
  bind(T.ApprovalService).to(ApprovalService).inSingletonScope();
  bind(T.ConversationStore).to(ConversationStore).inSingletonScope();
  // Turns and invocations share one admission cache, kept current by the consumption they record.
  bind(T.BudgetAdmission)
    .toDynamicValue(
      (ctx) => new CachedBudgetAdmission(get<TokenBudgetService>(ctx, T.TokenBudgetService), get<Clock>(ctx, T.Clock)),
    )
    .inSingletonScope();
  bind(T.AgentCallRecorder)
    .toDynamicValue(
      (ctx) =>
        new AgentCallRecorder(
          get<AgentTraceSink>(ctx, T.AgentTraceSink),
          get<TokenBudgetService>(ctx, T.BudgetAdmission),
          get<Clock>(ctx, T.Clock),
          get<Logger>(ctx, T.Logger),
        ),
    )
    .inSingletonScope();
  bind(T.AgentsBackendService)
    .toDynamicValue(
      (ctx) =>
        new AgentsBackendService({
          registry: get<AgentsRegistry>(ctx, T.AgentsRegistry),
          providers: get<ProviderRegistry>(ctx, T.LLMProviderRegistry),
          recorder: get<AgentCallRecorder>(ctx, T.AgentCallRecorder),
          budgets: get<TokenBudgetService>(ctx, T.BudgetAdmission),
          now: () => get<Clock>(ctx, T.Clock).now(),
          ...codingArm(ctx),
        }),
    )
    .inSingletonScope();
  bind(T.ConversationService)
    .toDynamicValue((ctx) => {
      const registry = get<AgentsRegistry>(ctx, T.AgentsRegistry);
      return new ConversationService({
        registry,
        access: new ActorSystemAccess(
          registry,
          get<ExecutionContextCreator>(ctx, T.ExecutionContextCreator),
          get<RoleHierarchyResolver>(ctx, T.RoleHierarchyResolver),
        ),
        store: get<ConversationStore>(ctx, T.ConversationStore),
        approvals: get<ApprovalService>(ctx, T.ApprovalService),
        providers: get<ProviderRegistry>(ctx, T.LLMProviderRegistry),
        recorder: get<AgentCallRecorder>(ctx, T.AgentCallRecorder),
        budgets: get<TokenBudgetService>(ctx, T.BudgetAdmission),
        external: get<ExternalMcpConnector>(ctx, T.ExternalMcpConnector),
        clock: get<Clock>(ctx, T.Clock),
        toolDispatch: toolDispatchPath(
          get<OperationDispatcher>(ctx, T.OperationDispatcher),
          get<ResourcesRegistry>(ctx, T.ResourcesRegistry),
        ),
        logger: get<Logger>(ctx, T.Logger),
      });
    })
    .inSingletonScope();
});

/** The agents runtime as an engine module: its tables and bindings. */
export const agentsModule: FlowsActorsModule = {
  name: 'wildo-agents',
  migrations: AGENTS_MIGRATIONS,
  containerModule: agentsContainerModule,
};
