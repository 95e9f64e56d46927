import type { Container } from 'inversify';
import type { ConversationService } from '../agents/runtime/index.js';
import type { AgentsRegistry, FlowsActorsApplication } from '../agents/systems/index.js';
import { SAAS_SERVICE_TYPES as T, type Clock, type ModuleBase } from '../container/index.js';
import type { CoordinationBackend } from '../coordination/index.js';
import type { Logger } from '../logging/index.js';
import { OutboundTargetGuard, type OutboundTargetGuardOptions } from '../net/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import type { ResourceServerInstancesRegistryBackendService } from '../resource-servers/index.js';
import { A2aAgentDirectory } from './a2a-agents.js';
import type { JobQueueService, JobRunSummary } from '../jobs/index.js';
import { A2aJobs, DEFAULT_PUSH_RETRY, type A2aPushRetryPolicy } from './a2a-jobs.js';
import { A2aPushService } from './a2a-push.service.js';
import { A2aTaskService, type A2aTaskSettings } from './a2a-task.service.js';
import { A2aTaskStore } from './a2a-task.store.js';
import { A2A_MIGRATIONS } from './a2a.migrations.js';

/** A2A settings, each with its default. */
export interface A2aSettings {
  /** Guard of push callbacks; default: production mode in production, development mode (no extra targets) else. */
  pushGuard?: OutboundTargetGuardOptions;
  /** Retries of a failing callback by the job queue (default 4 attempts, 1 s doubling). */
  pushRetry?: A2aPushRetryPolicy;
  /** Task leases (default 30 s). */
  tasks?: Partial<A2aTaskSettings>;
  /** Push notification callbacks one task may have (default {@link DEFAULT_MAX_PUSH_CONFIGS_PER_TASK}). */
  maxPushConfigsPerTask?: number;
}

/** Push notification callbacks per task by default: each status change queues one delivery per callback. */
export const DEFAULT_MAX_PUSH_CONFIGS_PER_TASK = 10;

/** The A2A runtime of one backend: agents, tasks, push notifications, and its lifecycle. */
export class A2aRuntime {
  constructor(
    readonly agents: A2aAgentDirectory,
    readonly store: A2aTaskStore,
    readonly tasks: A2aTaskService,
    readonly push: A2aPushService,
    readonly jobs: A2aJobs,
    private readonly guard: OutboundTargetGuard,
    private readonly logger: Logger,
    private readonly production: boolean,
  ) {}

  /**
   * Listens for cancellations. In production the job queue (deliveries, the scheduled sweep) starts now, in the
   * background; elsewhere with the first task or callback.
   */
  async start(): Promise<void> {
    await this.tasks.start();
    if (this.production)
      void this.jobs
        .start()
        .catch((error: unknown) => this.logger.error('A2A job queue did not start', { error: String(error) }));
  }

  /** Stops the cancellation listener and the callback connections (the job queue drains first). */
  async stop(): Promise<void> {
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
  application: FlowsActorsApplication,
  options: { production: boolean; jobs: JobQueueService; settings?: A2aSettings },
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
  const retry = options.settings?.pushRetry ?? DEFAULT_PUSH_RETRY;
  // The handlers are bound once the services below exist; the queue calls them only after `start`.
  const jobs: A2aJobs = new A2aJobs({
    jobs: options.jobs,
    logger,
    retry,
    deliver: (run): Promise<JobRunSummary> => push.deliver(run),
    sweep: async (): Promise<JobRunSummary> => ({ swept: (await tasks.sweepAbandoned(clock.now())).length }),
  });
  const push: A2aPushService = new A2aPushService({
    db: database,
    tasks: store,
    guard,
    clock,
    logger,
    jobs,
    retry,
    maxConfigsPerTask: options.settings?.maxPushConfigsPerTask ?? DEFAULT_MAX_PUSH_CONFIGS_PER_TASK,
  });
  const tasks: A2aTaskService = new A2aTaskService(
    {
      conversations: get<ConversationService>(T.ConversationService),
      store,
      coordination: get<CoordinationBackend>(T.Coordination),
      listener: push,
      logger,
      startJobs: (): Promise<void> => jobs.start(),
    },
    options.settings?.tasks ?? {},
  );
  return new A2aRuntime(agents, store, tasks, push, jobs, guard, logger, options.production);
}

/** A2A as an engine module: its tables (the runtime is built by `createWildoBackend`). */
export const a2aModule: ModuleBase = { name: 'wildo-a2a', migrations: A2A_MIGRATIONS };
