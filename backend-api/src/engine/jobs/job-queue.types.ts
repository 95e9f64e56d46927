import type { SqlExecutor } from '../persistence/index.js';

/** How a queue retries and expires its jobs; every field has a default. */
export interface JobQueueDefinition {
  /** Retries after the first attempt. Default 3. */
  retryLimit?: number;
  /** Seconds before the first retry. Default 10. */
  retryDelaySeconds?: number;
  /** Doubles the delay at each retry (exponential backoff, with pg-boss's jitter). Default true. */
  retryBackoff?: boolean;
  /**
   * Seconds an attempt may run. A run still going after it is failed (and retried); a job whose worker
   * died (its process crashed) is failed by the queue's maintenance once this has passed. Default 900.
   */
  expireInSeconds?: number;
}

/** Options of {@link JobQueueService.enqueue}. */
export interface EnqueueOptions {
  /**
   * The transaction that wrote the data the job is about: the job commits or rolls back with it, so a job
   * never runs for a write that did not happen. Without it the job is committed at once.
   */
  transaction?: SqlExecutor;
  /** Runs no earlier than this many seconds from now. */
  startAfterSeconds?: number;
  /** At most one job with this key waits in the queue at a time (a duplicate enqueue returns null). */
  singletonKey?: string;
}

/** One run of a job, as its handler sees it. */
export interface JobRun<TData> {
  id: string;
  queue: string;
  data: TData;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
}

/** Counts and flags a handler reports about its run; logged in the run's summary line. */
export type JobRunSummary = Readonly<Record<string, string | number | boolean | null>>;

/** Does a job's work; throwing fails the attempt (retried while the queue's `retryLimit` allows). */
export type JobHandler<TData> = (run: JobRun<TData>) => Promise<JobRunSummary | void>;

/** Options of {@link JobQueueService.work}. */
export interface WorkOptions {
  /** Jobs of this queue run at once in this process. Default 1. */
  concurrency?: number;
  /** Seconds between polls when the queue is empty. Default: the service's setting. */
  pollingIntervalSeconds?: number;
}

/** Where a job is in its life. */
export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

/** A job as stored. */
export interface JobRecord<TData = unknown> {
  id: string;
  queue: string;
  state: JobState;
  data: TData;
  /** Retries so far (0 while the first attempt has not failed). */
  retryCount: number;
  retryLimit: number;
  createdOn: Date;
  completedOn: Date | null;
}

/** Settings of the {@link JobQueueService}; defaults in `DEFAULT_JOB_QUEUE_SETTINGS`. */
export interface JobQueueSettings {
  /** Seconds between polls of an idle queue. Default 2. */
  pollingIntervalSeconds: number;
  /** Seconds between maintenance passes (expiring crashed runs, archiving). Default 60. */
  maintenanceIntervalSeconds: number;
  /** At shutdown, milliseconds to let runs in flight finish before failing them (they are retried). Default 15 000. */
  drainTimeoutMs: number;
  /** Schema of the queue's tables. Default: the connection's own schema, or `wildo_jobs` when that is `public`. */
  schema?: string;
}
