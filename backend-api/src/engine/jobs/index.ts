/**
 * Background jobs: a pg-boss queue in the application's own database (PGlite or PostgreSQL), with
 * transactional enqueue, workers, cron schedules, retries with backoff and a graceful drain.
 */
export { DEFAULT_JOB_QUEUE_DEFINITION, DEFAULT_JOB_QUEUE_SETTINGS, JobQueueService } from './job-queue.service.js';
export type { JobQueueServiceOptions } from './job-queue.service.js';
export type {
  EnqueueOptions,
  JobHandler,
  JobQueueDefinition,
  JobQueueSettings,
  JobRecord,
  JobRun,
  JobRunSummary,
  JobState,
  WorkOptions,
} from './job-queue.types.js';
export { JOBS_TYPES } from './jobs.tokens.js';
