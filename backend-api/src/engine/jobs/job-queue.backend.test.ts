import { afterAll, beforeAll, expect, it } from 'vitest';
import { deferred } from '../../testing/llm-stubs/index.js';
import { createTestBackend, openTestSchema, type TestBackend } from '../../testing/test-backend.js';
import { defineBackendApplication } from '../bootstrap/backend-domain-module.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import type { JobQueueService } from './job-queue.service.js';
import { JOBS_TYPES } from './jobs.tokens.js';

let database: SqlDatabase;
let test: TestBackend;

beforeAll(async () => {
  database = await openTestSchema();
  test = await createTestBackend(database, {
    application: defineBackendApplication({ name: 'jobs-wiring', modules: [] }),
    jobs: { pollingIntervalSeconds: 0.5 },
  });
});
afterAll(async () => {
  await test.close();
  await database.close();
});

it('binds the job queue in the container and drains it when the backend closes', async () => {
  const jobs = test.backend.container.get<JobQueueService>(JOBS_TYPES.JobQueueService);
  await jobs.defineQueue('wiring');
  const started = deferred();
  const release = deferred();
  await jobs.work('wiring', async () => {
    started.resolve();
    await release.promise;
    return { released: true };
  });
  const id = await jobs.enqueue('wiring', { step: 'close' });
  await started.promise;
  let closed = false;
  const closing = test.close().then(() => {
    closed = true;
  });
  // The backend's shutdown waits for the run in flight (the database it uses is still open meanwhile).
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(closed).toBe(false);
  release.resolve();
  await closing;
  const { rows } = await database.query<{ state: string }>('SELECT state::text AS state FROM job WHERE id = $1', [id]);
  expect(rows).toEqual([{ state: 'completed' }]);
});
