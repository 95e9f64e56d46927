import PgBoss from 'pg-boss';
import type { Logger } from '../logging/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import type {
  EnqueueOptions,
  JobHandler,
  JobQueueDefinition,
  JobQueueSettings,
  JobRecord,
  JobRunSummary,
  WorkOptions,
} from './job-queue.types.js';
import { jobsSchemaFor, pgBossDatabase, pgBossTransaction } from './pg-boss-database.js';

/** Defaults of {@link JobQueueSettings}. */
export const DEFAULT_JOB_QUEUE_SETTINGS: JobQueueSettings = {
  pollingIntervalSeconds: 2,
  maintenanceIntervalSeconds: 60,
  drainTimeoutMs: 15_000,
};

/** Defaults of {@link JobQueueDefinition}. */
export const DEFAULT_JOB_QUEUE_DEFINITION: Required<JobQueueDefinition> = {
  retryLimit: 3,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 900,
};

/** Options of the {@link JobQueueService} constructor. */
export interface JobQueueServiceOptions {
  /** The application's database: the queue lives in it (PGlite or PostgreSQL). */
  database: SqlDatabase;
  logger: Logger;
  settings?: Partial<JobQueueSettings>;
}

const QUEUE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * Background jobs on pg-boss, in the application's own database: enqueued inside the transaction of the
 * write that causes them, fetched with `FOR UPDATE SKIP LOCKED` (one run per job across replicas), retried
 * with backoff, expired when their worker dies, scheduled by cron, drained at shutdown. Every run logs one
 * summary line (`job run`: queue, job, attempt, outcome, duration, the handler's own counts). The queue
 * starts on first use, so a backend that never uses it pays nothing.
 *
 * @example
 * await jobs.defineQueue('rag.ingest', { retryLimit: 5 });
 * await jobs.work<{ documentId: string }>('rag.ingest', async ({ data }) => ({ chunks: await ingest(data.documentId) }));
 * await database.transaction(async (tx) => {
 *   await tx.query('UPDATE ...');
 *   await jobs.enqueue('rag.ingest', { documentId }, { transaction: tx });
 * });
 * await jobs.schedule('rag.embedding-drain', '*\/5 * * * *');
 */
export class JobQueueService {
  private readonly settings: JobQueueSettings;
  private readonly logger: Logger;
  private starting: Promise<PgBoss> | undefined;
  private readonly definedQueues = new Set<string>();
  private readonly workerIds = new Map<string, string[]>();
  private started: PgBoss | undefined;
  private draining: Promise<void> | undefined;

  constructor(private readonly options: JobQueueServiceOptions) {
    this.settings = { ...DEFAULT_JOB_QUEUE_SETTINGS, ...options.settings };
    this.logger = options.logger.child({ component: 'jobs' });
  }

  /** Creates the queue when missing, or updates its retry policy (idempotent; call it at start, outside transactions). */
  async defineQueue(queue: string, definition: JobQueueDefinition = {}): Promise<void> {
    assertQueueName(queue);
    const boss = await this.boss();
    const policy = { ...DEFAULT_JOB_QUEUE_DEFINITION, ...definition };
    const queueOptions: PgBoss.Queue = {
      name: queue,
      retryLimit: policy.retryLimit,
      retryDelay: policy.retryDelaySeconds,
      retryBackoff: policy.retryBackoff,
      expireInSeconds: policy.expireInSeconds,
    };
    if ((await boss.getQueue(queue)) === null) await boss.createQueue(queue, queueOptions);
    else await boss.updateQueue(queue, queueOptions);
    this.definedQueues.add(queue);
  }

  /**
   * Adds a job to a queue defined in this process; with `transaction`, the job exists only if that
   * transaction commits. Returns the job's id, or null when `singletonKey` found one already waiting.
   */
  async enqueue<TData extends object>(
    queue: string,
    data: TData,
    options: EnqueueOptions = {},
  ): Promise<string | null> {
    const boss = this.startedBossFor(queue);
    if (this.draining) throw new Error('The job queue is shutting down: it accepts no new jobs.');
    const sendOptions: PgBoss.SendOptions = {
      ...(options.transaction ? { db: pgBossTransaction(options.transaction) } : {}),
      ...(options.startAfterSeconds === undefined ? {} : { startAfter: options.startAfterSeconds }),
      ...(options.singletonKey === undefined ? {} : { singletonKey: options.singletonKey }),
    };
    const id = await boss.send(queue, data, sendOptions);
    // Committed at once: wake this process's idle workers instead of waiting for their next poll.
    if (id !== null && !options.transaction)
      for (const workerId of this.workerIds.get(queue) ?? []) boss.notifyWorker(workerId);
    return id;
  }

  /** Runs `handler` for each job of a defined queue, `concurrency` at a time in this process. */
  async work<TData>(queue: string, handler: JobHandler<TData>, options: WorkOptions = {}): Promise<void> {
    const boss = this.startedBossFor(queue);
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer.');
    const workOptions = {
      batchSize: 1,
      includeMetadata: true as const,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? this.settings.pollingIntervalSeconds,
    };
    const ids = this.workerIds.get(queue) ?? [];
    this.workerIds.set(queue, ids);
    for (let i = 0; i < concurrency; i++) {
      const worker: { id?: string } = {};
      worker.id = await boss.work<TData>(queue, workOptions, async ([job]) => {
        if (!job) return;
        try {
          await this.run(job, handler);
        } finally {
          // pg-boss waits a polling interval after every fetch; a worker that just ran a job asks again at once.
          if (worker.id !== undefined) boss.notifyWorker(worker.id);
        }
      });
      ids.push(worker.id);
    }
  }

  /** Enqueues `data` on a defined queue at each tick of `cron` (UTC by default); one schedule per queue, across replicas. */
  async schedule(queue: string, cron: string, data: object = {}, options: { tz?: string } = {}): Promise<void> {
    const boss = this.startedBossFor(queue);
    await boss.schedule(queue, cron, data, { tz: options.tz ?? 'UTC' });
  }

  /** Removes the queue's schedule. */
  async unschedule(queue: string): Promise<void> {
    await this.startedBossFor(queue).unschedule(queue);
  }

  /** The schedules stored in the queue (every replica's). */
  async listSchedules(): Promise<{ queue: string; cron: string; timezone: string }[]> {
    const boss = await this.boss();
    const schedules = (await boss.getSchedules()) as (PgBoss.Schedule & { timezone?: string })[];
    return schedules.map((s) => ({ queue: s.name, cron: s.cron, timezone: s.timezone ?? 'UTC' }));
  }

  /** A job by id (archived ones included), or null when no such job exists. */
  async getJob<TData = unknown>(queue: string, id: string): Promise<JobRecord<TData> | null> {
    const job = await this.startedBossFor(queue).getJobById<TData>(queue, id, { includeArchive: true });
    if (job === null) return null;
    return {
      id: job.id,
      queue: job.name,
      state: job.state,
      data: job.data,
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
      createdOn: job.createdOn,
      completedOn: job.completedOn,
    };
  }

  /**
   * Graceful drain (the backend calls it at shutdown, before closing the database): no new fetches, runs in
   * flight get `drainTimeoutMs` to finish; those still running are failed and retried by another replica
   * or the next start.
   */
  drain(): Promise<void> {
    this.draining ??= this.stopBoss();
    return this.draining;
  }

  private async stopBoss(): Promise<void> {
    if (!this.starting) return;
    const boss = await this.starting;
    await boss.stop({ graceful: true, timeout: this.settings.drainTimeoutMs, close: false });
    this.logger.info('job queue drained');
  }

  private boss(): Promise<PgBoss> {
    if (this.draining) return Promise.reject(new Error('The job queue is shutting down.'));
    this.starting ??= this.startBoss();
    return this.starting;
  }

  private async startBoss(): Promise<PgBoss> {
    const { database } = this.options;
    const schema = this.settings.schema ?? (await jobsSchemaFor(database));
    const boss = new PgBoss({
      db: pgBossDatabase(database),
      schema,
      migrate: true,
      supervise: true,
      schedule: true,
      maintenanceIntervalSeconds: this.settings.maintenanceIntervalSeconds,
    });
    boss.on('error', (error) => this.logger.error('job queue error', { error: error.message }));
    await boss.start();
    this.started = boss;
    this.logger.info('job queue started', { schema, dialect: database.info.dialect });
    return boss;
  }

  /** The started queue for a queue defined in this process (defining starts it; enqueue must not, inside a transaction). */
  private startedBossFor(queue: string): PgBoss {
    if (!this.definedQueues.has(queue) || !this.started) {
      throw new Error(`Job queue "${queue}" is not defined in this process: call defineQueue("${queue}") at start.`);
    }
    return this.started;
  }

  private async run<TData>(job: PgBoss.JobWithMetadata<TData>, handler: JobHandler<TData>): Promise<void> {
    const attempt = job.retryCount + 1;
    const fields = { queue: job.name, jobId: job.id, attempt, maxAttempts: job.retryLimit + 1 };
    const startedAt = performance.now();
    try {
      const summary: JobRunSummary | void = await handler({ id: job.id, queue: job.name, data: job.data, attempt });
      const durationMs = Math.round(performance.now() - startedAt);
      this.logger.info('job run', { ...fields, outcome: 'completed', durationMs, ...(summary ? { summary } : {}) });
    } catch (error) {
      const durationMs = Math.round(performance.now() - startedAt);
      const willRetry = job.retryCount < job.retryLimit;
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn('job run', { ...fields, outcome: 'failed', willRetry, durationMs, error: message });
      throw error;
    }
  }
}

function assertQueueName(queue: string): void {
  if (!QUEUE_NAME.test(queue)) {
    throw new Error(`Job queue name "${queue}" is invalid: use 1-100 letters, digits, "_", "." or "-".`);
  }
}
