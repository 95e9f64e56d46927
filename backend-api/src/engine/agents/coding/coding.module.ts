import { ContainerModule, type ResolutionContext } from 'inversify';
import { SAAS_SERVICE_TYPES as T, type Clock, type ModuleBase } from '../../container/index.js';
import type { RuntimeConfiguration } from '../../config/index.js';
import type { Logger } from '../../logging/index.js';
import type { SqlDatabase } from '../../persistence/index.js';
import type { TokenBudgetService } from '../budgets/index.js';
import { CODING_AGENT_ARM, type AgentCallRecorder } from '../runtime/index.js';
import { CodingAgentService } from './coding-agent.service.js';
import type { CodingAgentSettings } from './coding-agent.types.js';
import { CodingRunStore } from './coding-run.store.js';
import { CODING_MIGRATIONS } from './coding.migrations.js';
import { CODING_TYPES } from './coding.tokens.js';

/** What `createWildoBackend` gives the coding runtime: the environment subprocesses draw from, and its settings. */
export interface CodingAgentRuntimeOptions {
  env: Readonly<Record<string, string | undefined>>;
  settings?: CodingAgentSettings;
}

const get = <V>(ctx: ResolutionContext, token: symbol) => ctx.get<V>(token);

/** A runtime configuration only when one was given (`createWildoBackend` binds `{}` without one). */
function runtimeOf(ctx: ResolutionContext): RuntimeConfiguration | undefined {
  const runtime = ctx.get<Partial<RuntimeConfiguration>>(T.RuntimeConfiguration, { optional: true });
  return runtime?.providers ? (runtime as RuntimeConfiguration) : undefined;
}

/** Binds the coding-agent runtime: its store and the service behind the coding arm of `invokeAgent`. */
export const codingAgentsContainerModule = new ContainerModule(({ bind }) => {
  bind(CODING_TYPES.CodingRunStore)
    .toDynamicValue((ctx) => new CodingRunStore(get<SqlDatabase>(ctx, T.Database), get<Clock>(ctx, T.Clock)))
    .inSingletonScope();
  bind(CODING_TYPES.CodingAgentService)
    .toDynamicValue((ctx) => {
      const options = ctx.get<CodingAgentRuntimeOptions>(CODING_TYPES.CodingAgentRuntimeOptions, { optional: true });
      return new CodingAgentService({
        runtime: runtimeOf(ctx),
        store: get<CodingRunStore>(ctx, CODING_TYPES.CodingRunStore),
        recorder: get<AgentCallRecorder>(ctx, T.AgentCallRecorder),
        budgets: get<TokenBudgetService>(ctx, T.BudgetAdmission),
        clock: get<Clock>(ctx, T.Clock),
        logger: get<Logger>(ctx, T.Logger),
        env: options?.env ?? {},
        ...(options?.settings ? { settings: options.settings } : {}),
      });
    })
    .inSingletonScope();
  // The coding arm of `invokeAgent`: the runtime below reaches this service through the port it declares.
  bind(CODING_AGENT_ARM).toService(CODING_TYPES.CodingAgentService);
});

/** The coding-agent runtime as an engine module: its tables (sessions, runs) and bindings. */
export const codingAgentsModule: ModuleBase = {
  name: 'wildo-coding-agents',
  migrations: CODING_MIGRATIONS,
  containerModule: codingAgentsContainerModule,
};
