import type { Container } from 'inversify';
import type { ConversationService } from '../agents/conversations/conversation.service.js';
import type { AgentsRegistry } from '../agents/agents-registry.service.js';
import type { BackendApplicationDefinition, BackendDomainModule } from '../container/backend-domain-module.js';
import type { Clock } from '../container/clock.js';
import { SAAS_SERVICE_TYPES as T } from '../container/saas-service-types.tokens.js';
import type { CoordinationBackend } from '../coordination/coordination.js';
import type { Logger } from '../logging/index.js';
import { OutboundTargetGuard, type OutboundTargetGuardOptions } from '../net/index.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import type { ResourceServerInstancesRegistryBackendService } from '../resource-servers/resource-server-instances.registry.js';
import { A2aAgentDirectory } from './a2a-agents.js';
import { A2aPushService, type A2aPushRetryPolicy } from './a2a-push.service.js';
import { A2aTaskService, type A2aTaskSettings } from './a2a-task.service.js';
import { A2aTaskStore } from './a2a-task.store.js';
import { A2A_MIGRATIONS } from './a2a.migrations.js';

/** A2A settings, each with its default. */
export interface A2aSettings {
  /** Guard of push callbacks; default: production mode in production, development mode (no extra targets) else. */
  pushGuard?: OutboundTargetGuardOptions;
  /** Retries of a failing callback (default 4 attempts, 1 s doubling). */
  pushRetry?: A2aPushRetryPolicy;
  /** Task leases (default 30 s). */
  tasks?: Partial<A2aTaskSettings>;
}

/** The A2A runtime of one backend: agents, tasks, push notifications, and its lifecycle. */
export class A2aRuntime {
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly agents: A2aAgentDirectory,
    readonly store: A2aTaskStore,
    readonly tasks: A2aTaskService,
    readonly push: A2aPushService,
    private readonly guard: OutboundTargetGuard,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly sweepEveryMs: number,
  ) {}

  /** Listens for cancellations and sweeps abandoned tasks now and then. */
  async start(): Promise<void> {
    await this.tasks.start();
    this.sweepTimer = setInterval(() => {
      void this.tasks
        .sweepAbandoned(this.clock.now())
        .catch((error: unknown) => this.logger.warn('A2A abandoned-task sweep failed', { error: String(error) }));
    }, this.sweepEveryMs);
    this.sweepTimer.unref();
  }

  /** Stops the sweep, the cancellation listener and the callback connections. */
  async stop(): Promise<void> {
    clearInterval(this.sweepTimer);
    await this.tasks.stop();
    await this.guard.close();
  }
}

/**
 * Builds the A2A runtime from a loaded container. Refuses (throws) when a named A2A instance names an actor system
 * that does not resolve, so the backend does not start with a card broader or narrower than declared.
 */
export function createA2aRuntime(
  container: Container,
  application: BackendApplicationDefinition,
  options: { production: boolean; settings?: A2aSettings },
): A2aRuntime {
  const get = <V>(token: symbol) => container.get<V>(token);
  const logger = get<Logger>(T.Logger);
  const clock = get<Clock>(T.Clock);
  const database = get<SqlDatabase>(T.Database);
  const agents = new A2aAgentDirectory(
    get<AgentsRegistry>(T.AgentsRegistry),
    application.resourceServerInstances ?? [],
    get<ResourceServerInstancesRegistryBackendService>(T.ResourceServerInstancesRegistry),
    application.name,
  );
  const store = new A2aTaskStore(database, clock);
  const guard = new OutboundTargetGuard(
    options.settings?.pushGuard ?? { mode: options.production ? 'production' : 'development' },
  );
  const push = new A2aPushService({
    db: database,
    tasks: store,
    guard,
    clock,
    logger,
    ...(options.settings?.pushRetry ? { retry: options.settings.pushRetry } : {}),
  });
  const taskSettings = options.settings?.tasks ?? {};
  const tasks = new A2aTaskService(
    {
      conversations: get<ConversationService>(T.ConversationService),
      store,
      coordination: get<CoordinationBackend>(T.Coordination),
      listener: push,
      logger,
    },
    taskSettings,
  );
  const sweepEveryMs = 2 * (taskSettings.leaseTtlMs ?? 30_000);
  return new A2aRuntime(agents, store, tasks, push, guard, clock, logger, sweepEveryMs);
}

/** A2A as an engine module: its tables (the runtime is built by `createWildoBackend`). */
export const a2aModule: BackendDomainModule = { name: 'wildo-a2a', migrations: A2A_MIGRATIONS };
