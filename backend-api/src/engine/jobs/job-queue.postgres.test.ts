import { describe } from 'vitest';
import { openPostgresHarness, postgresTestUrl } from '../persistence/postgres-test-schema.js';
import { describeJobQueueContract } from './job-queue.contract.js';

const url = postgresTestUrl();

describe.skipIf(url === undefined)('PostgreSQL (DATABASE_URL)', () => {
  // Each replica has its own pool, as another process would.
  describeJobQueueContract('JobQueueService on PostgreSQL', () => openPostgresHarness(url ?? ''));
});
