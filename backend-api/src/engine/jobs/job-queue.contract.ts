// The job queue's contract, run on every database the machine has (PGlite always, PostgreSQL with DATABASE_URL).
import PgBoss from 'pg-boss';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { deferred } from '../../testing/llm-stubs/index.js';
import { recordingLogger } from '../observability/observability.fixtures.js';
import { useSqlDatabaseHarness, type OpenSqlDatabaseHarness } from '../persistence/sql-database.contract.js';
import { JobQueueService } from './job-queue.service.js';
import { jobsSchemaFor, pgBossDatabase } from './pg-boss-database.js';

const FAST = { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, drainTimeoutMs: 5_000 };

/** Runs the job queue contract against the database `open` gives. */
export function describeJobQueueContract(name: string, open: OpenSqlDatabaseHarness): void {
  describe(name, () => {
    const harness = useSqlDatabaseHarness(open);
    const services: JobQueueService[] = [];
    const lines = recordingLogger();
    const newService = (database = harness().database) => {
      const service = new JobQueueService({ database, logger: lines, settings: FAST });
      services.push(service);
      return service;
    };
    afterAll(async () => {
      await Promise.all(services.map((service) => service.drain()));
    });

    it('never runs a job enqueued in a rolled-back transaction; the committed one runs', async () => {
      const { database } = harness();
      const jobs = newService();
      await jobs.defineQueue('tx-bound');
      await database.exec('CREATE TABLE job_cause (note text NOT NULL)');
      const ran: string[] = [];
      const committedRan = deferred<void>();
      let rolledBackId: string | null = null;
      await expect(
        database.transaction(async (tx) => {
          await tx.query('INSERT INTO job_cause (note) VALUES ($1)', ['rolled back']);
          rolledBackId = await jobs.enqueue('tx-bound', { note: 'rolled back' }, { transaction: tx });
          throw new Error('the write that caused the job fails');
        }),
      ).rejects.toThrow('the write that caused the job fails');
      const committedId = await database.transaction(async (tx) => {
        await tx.query('INSERT INTO job_cause (note) VALUES ($1)', ['committed']);
        return jobs.enqueue('tx-bound', { note: 'committed' }, { transaction: tx });
      });
      await jobs.work<{ note: string }>('tx-bound', async ({ id }) => {
        ran.push(id);
        if (id === committedId) committedRan.resolve();
      });
      // One worker takes jobs oldest first: had the rolled-back job existed, it would have run before this one.
      await committedRan.promise;
      expect(rolledBackId).toEqual(expect.any(String));
      expect(ran).toEqual([committedId]);
      expect(await jobs.getJob('tx-bound', rolledBackId ?? '')).toBeNull();
      const { rows } = await database.query<{ note: string }>('SELECT note FROM job_cause');
      expect(rows.map((row) => row.note)).toEqual(['committed']);
    });

    it('runs each job once when two replicas work the same queue', async () => {
      const first = newService();
      const second = newService(await harness().openReplica());
      const total = 30;
      const runs = new Map<string, string[]>();
      const allRan = deferred<void>();
      const handlerOf =
        (replica: string) =>
        async ({ id }: { id: string }) => {
          runs.set(id, [...(runs.get(id) ?? []), replica]);
          if (runs.size === total) allRan.resolve();
        };
      for (const [replica, jobs] of [
        ['first', first],
        ['second', second],
      ] as const) {
        await jobs.defineQueue('contended');
        await jobs.work('contended', handlerOf(replica), { concurrency: 3 });
      }
      const ids = await harness().database.transaction(async (tx) => {
        const created: (string | null)[] = [];
        for (let i = 0; i < total; i++) created.push(await first.enqueue('contended', { i }, { transaction: tx }));
        return created;
      });
      await allRan.promise;
      // Completion is recorded after each handler returns: wait until every job says so, then count runs.
      await vi.waitFor(
        async () => {
          const states = await Promise.all(ids.map(async (id) => (await first.getJob('contended', id ?? ''))?.state));
          expect(states.every((state) => state === 'completed')).toBe(true);
        },
        { timeout: 10_000, interval: 100 },
      );
      expect(runs.size).toBe(total);
      expect([...runs.values()].filter((replicas) => replicas.length !== 1)).toEqual([]);
    });

    it('retries the job of a worker that died mid-run, once its expiry passes', async () => {
      const database = harness().database;
      const jobs = newService();
      await jobs.defineQueue('crashy', {
        expireInSeconds: 1,
        retryDelaySeconds: 0,
        retryBackoff: false,
        retryLimit: 2,
      });
      const id = await jobs.enqueue('crashy', { work: 'resize' });
      // The crashed worker: another replica's pg-boss fetched the job (now active) and never reported again.
      const crashed = new PgBoss({
        db: pgBossDatabase(await harness().openReplica()),
        schema: await jobsSchemaFor(database),
        migrate: false,
        supervise: false,
        schedule: false,
      });
      await crashed.start();
      const [taken] = await crashed.fetch('crashy');
      expect(taken?.id).toBe(id);
      expect((await jobs.getJob('crashy', id ?? ''))?.state).toBe('active');
      const retried = deferred<number>();
      await jobs.work('crashy', async ({ attempt }) => retried.resolve(attempt));
      // The live replica's maintenance expires the abandoned run and its worker takes the retry.
      expect(await retried.promise).toBe(2);
      await vi.waitFor(async () => expect((await jobs.getJob('crashy', id ?? ''))?.state).toBe('completed'), {
        timeout: 5_000,
        interval: 100,
      });
    });

    it('retries a failed run after a backoff delay and logs one summary line per run', async () => {
      const jobs = newService();
      await jobs.defineQueue('flaky', { retryDelaySeconds: 1, retryBackoff: true, retryLimit: 1 });
      const attempts: { attempt: number; at: number }[] = [];
      const succeeded = deferred<void>();
      await jobs.work<{ file: string }>('flaky', async ({ attempt }) => {
        attempts.push({ attempt, at: Date.now() });
        if (attempt === 1) throw new Error('storage briefly unavailable');
        succeeded.resolve();
        return { chunks: 4, skipped: false };
      });
      const id = await jobs.enqueue('flaky', { file: 'a.pdf' });
      await succeeded.promise;
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
      // Backoff: the first retry waits between retryDelay and twice it (pg-boss adds jitter).
      expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
      const runLines = () => lines.lines.filter((line) => line.message === 'job run' && line.fields.jobId === id);
      // The summary line follows the handler's return.
      await vi.waitFor(() => expect(runLines()).toHaveLength(2), { timeout: 5_000, interval: 20 });
      expect(runLines().map((line) => line.fields)).toEqual([
        expect.objectContaining({ queue: 'flaky', attempt: 1, maxAttempts: 2, outcome: 'failed', willRetry: true }),
        expect.objectContaining({
          queue: 'flaky',
          attempt: 2,
          outcome: 'completed',
          summary: { chunks: 4, skipped: false },
        }),
      ]);
      expect(runLines()[1]?.fields.durationMs).toEqual(expect.any(Number));
    });

    it('keeps cron schedules per queue and refuses an invalid expression or an undefined queue', async () => {
      const jobs = newService();
      await jobs.defineQueue('sweep');
      await jobs.schedule('sweep', '0 * * * *', { batch: 100 });
      expect(await jobs.listSchedules()).toEqual([{ queue: 'sweep', cron: '0 * * * *', timezone: 'UTC' }]);
      await expect(jobs.schedule('sweep', 'every hour')).rejects.toThrow();
      await expect(jobs.schedule('undeclared', '0 * * * *')).rejects.toThrow('is not defined in this process');
      await jobs.unschedule('sweep');
      expect(await jobs.listSchedules()).toEqual([]);
    });

    it('drains at shutdown: the run in flight finishes, then no new job is accepted', async () => {
      const jobs = newService();
      await jobs.defineQueue('drained');
      const started = deferred<void>();
      const release = deferred<void>();
      let finished = false;
      await jobs.work('drained', async () => {
        started.resolve();
        await release.promise;
        finished = true;
      });
      const id = await jobs.enqueue('drained', {});
      await started.promise;
      const drained = jobs.drain();
      release.resolve();
      await drained;
      expect(finished).toBe(true);
      await expect(jobs.enqueue('drained', {})).rejects.toThrow('shutting down');
      const observer = newService();
      await observer.defineQueue('drained');
      await vi.waitFor(async () => expect((await observer.getJob('drained', id ?? ''))?.state).toBe('completed'), {
        timeout: 5_000,
        interval: 100,
      });
    });
  });
}
