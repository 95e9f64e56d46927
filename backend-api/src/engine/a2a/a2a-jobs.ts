import type { JobHandler, JobQueueService } from '../jobs/index.js';
import type { Logger } from '../logging/index.js';
import type { SqlExecutor } from '../persistence/index.js';

/** Queue of push deliveries: one job per status change and callback. */
export const A2A_PUSH_QUEUE = 'a2a.push-delivery';
/** Queue of the abandoned-task sweep, fed by a schedule (one run per tick across replicas). */
export const A2A_SWEEP_QUEUE = 'a2a.sweep-abandoned';
/** The sweep's schedule: every minute (the finest cron tick; the lease TTL's double is 60 s by default). */
export const A2A_SWEEP_CRON = '* * * * *';

/** Retries of a failing callback: `attempts` in all, the queue waiting `baseDelaySeconds` doubled (with jitter) between them. */
export interface A2aPushRetryPolicy {
  attempts: number;
  baseDelaySeconds: number;
}

/** Default retry policy: 4 attempts, about 1 s, 2 s, 4 s apart. */
export const DEFAULT_PUSH_RETRY: A2aPushRetryPolicy = { attempts: 4, baseDelaySeconds: 1 };

/** What one delivery job carries: the callback's row id and the status change as it was stored (no secrets). */
export interface A2aPushJob {
  pushConfigId: string;
  taskId: string;
  state: string;
  payload: unknown;
}

/**
 * A2A's use of the job queue: push deliveries and the abandoned-task sweep. The queue starts with the first A2A task
 * this replica changes or the first callback it registers (or at start, in production), so a backend that never uses
 * A2A never starts it.
 */
export class A2aJobs {
  private starting: Promise<void> | undefined;
  private ready = false;

  constructor(
    private readonly deps: {
      jobs: JobQueueService;
      logger: Logger;
      retry: A2aPushRetryPolicy;
      deliver: JobHandler<A2aPushJob>;
      sweep: JobHandler<object>;
    },
  ) {}

  /** Defines the queues, works them here and schedules the sweep (once; idempotent across replicas). */
  start(): Promise<void> {
    this.starting ??= this.define().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  /** Whether this replica can enqueue deliveries now. */
  isReady(): boolean {
    return this.ready;
  }

  /** Enqueues one delivery inside the transaction of the change it reports. */
  async enqueueDelivery(job: A2aPushJob, tx: SqlExecutor | undefined): Promise<void> {
    await this.deps.jobs.enqueue(A2A_PUSH_QUEUE, job, tx ? { transaction: tx } : {});
  }

  private async define(): Promise<void> {
    const { jobs, retry } = this.deps;
    // Replicas starting together may deadlock on the queue's tables (PostgreSQL aborts one); defining is idempotent.
    await retried(() =>
      jobs.defineQueue(A2A_PUSH_QUEUE, {
        retryLimit: Math.max(0, retry.attempts - 1),
        retryDelaySeconds: retry.baseDelaySeconds,
        retryBackoff: true,
        expireInSeconds: 120,
      }),
    );
    await retried(() => jobs.defineQueue(A2A_SWEEP_QUEUE, { retryLimit: 0, expireInSeconds: 120 }));
    await jobs.work(A2A_PUSH_QUEUE, this.deps.deliver, { concurrency: 4 });
    await jobs.work(A2A_SWEEP_QUEUE, this.deps.sweep);
    await retried(() => jobs.schedule(A2A_SWEEP_QUEUE, A2A_SWEEP_CRON));
    this.ready = true;
  }
}

/** Runs `step` up to three times: a concurrent replica's definition can abort ours once (deadlock, unique key). */
async function retried(step: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}
