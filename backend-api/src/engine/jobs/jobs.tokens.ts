/** Injection token of the {@link JobQueueService} (`Symbol.for` keeps it equal across module copies). */
export const JOBS_TYPES = {
  JobQueueService: Symbol.for('wildo.JobQueueService'),
} as const;
