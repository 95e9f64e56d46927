import type { Container } from 'inversify';
import { SAAS_SERVICE_TYPES as T } from '../container/index.js';
import { JOBS_TYPES, type JobQueueService, type JobRunSummary } from '../jobs/index.js';
import type { RagIngestionService } from './ingestion/rag-ingestion.service.js';
import { RAG_EMBEDDING_DRAIN_BATCH_SIZE, type RagCorpusMaintenance } from './rag-corpus-maintenance.service.js';

/** The embedding drain's queue: a bounded batch every 5 minutes. */
export const RAG_EMBEDDING_DRAIN_QUEUE = 'wildo.rag.embedding-drain';
/** The sweep's queue: hourly. */
export const RAG_SWEEP_QUEUE = 'wildo.rag.sweep';
/** File extraction after a write that names files: enqueued in the write's own transaction. */
export const RAG_FILE_EXTRACTION_QUEUE = 'wildo.rag.file-extraction';
/** When the drain runs (UTC cron). */
export const RAG_EMBEDDING_DRAIN_CRON = '*/5 * * * *';
/** When the sweep runs (UTC cron). */
export const RAG_SWEEP_CRON = '0 * * * *';

/** Data of a drain job. */
export interface EmbeddingDrainJobData {
  batchSize?: number;
}

/** A summary flattened to the scalars a job run's log line carries. */
function flatten(summary: object): JobRunSummary {
  const out: Record<string, string | number | boolean | null> = {};
  const visit = (value: unknown, prefix: string) => {
    if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) visit(inner, prefix ? `${prefix}.${key}` : key);
    } else if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      out[prefix] = value as string | number | boolean | null;
    }
  };
  visit(summary, '');
  return out;
}

/**
 * Registers the RAG batch jobs on the job queue: the embedding drain and the sweep (queues, workers and, unless
 * `schedule` is false, cron schedules that fire once across replicas), and the file extraction that a write
 * naming files enqueues in its own transaction. A drain whose provider calls all failed
 * fails its run (retried, and visible in the run's summary line); an absent provider is a successful run that
 * reports it. The sweep's summary counts what it rebuilt, removed, repaired and extracted.
 *
 * @example
 * await startRagJobs(jobs, maintenance); // at start, outside transactions
 */
export async function startRagJobs(
  jobs: JobQueueService,
  maintenance: RagCorpusMaintenance,
  options: { batchSize?: number; schedule?: boolean } = {},
): Promise<void> {
  const batchSize = options.batchSize ?? RAG_EMBEDDING_DRAIN_BATCH_SIZE;
  await jobs.defineQueue(RAG_EMBEDDING_DRAIN_QUEUE, { retryLimit: 2, retryDelaySeconds: 30, expireInSeconds: 600 });
  await jobs.defineQueue(RAG_SWEEP_QUEUE, { retryLimit: 1, retryDelaySeconds: 60, expireInSeconds: 3_000 });
  await jobs.work<EmbeddingDrainJobData>(RAG_EMBEDDING_DRAIN_QUEUE, async ({ data }) => {
    const summary = await maintenance.drainEmbeddings({ batchSize: data.batchSize ?? batchSize });
    if (summary.status === 'failed')
      throw new Error(`embedding drain failed: ${summary.failed} chunks could not be embedded`);
    return flatten(summary);
  });
  await jobs.work(RAG_SWEEP_QUEUE, async () => flatten(await maintenance.sweep()));
  await jobs.defineQueue(RAG_FILE_EXTRACTION_QUEUE, { retryLimit: 3, retryDelaySeconds: 30, expireInSeconds: 900 });
  await jobs.work(RAG_FILE_EXTRACTION_QUEUE, async () => flatten(await maintenance.extractPendingFiles()));
  // One waiting extraction job is enough: it takes every pending file source (a bounded batch per run).
  maintenance.ingestion.onPendingFiles(async (tx) => {
    await jobs.enqueue(RAG_FILE_EXTRACTION_QUEUE, {}, { transaction: tx, singletonKey: 'pending-files' });
  });
  if (options.schedule === false) return;
  await jobs.schedule(RAG_EMBEDDING_DRAIN_QUEUE, RAG_EMBEDDING_DRAIN_CRON, { batchSize });
  await jobs.schedule(RAG_SWEEP_QUEUE, RAG_SWEEP_CRON);
}

/**
 * {@link startRagJobs} with the backend's own services, when the application declares a corpus (nothing is
 * started otherwise). The process that runs workers calls it once after `createWildoBackend`.
 */
export async function startRagBackgroundJobs(container: Container): Promise<boolean> {
  if (container.get<RagIngestionService>(T.RagIngestionService).listCorpora().length === 0) return false;
  await startRagJobs(
    container.get<JobQueueService>(JOBS_TYPES.JobQueueService),
    container.get<RagCorpusMaintenance>(T.RagCorpusMaintenance),
  );
  return true;
}
