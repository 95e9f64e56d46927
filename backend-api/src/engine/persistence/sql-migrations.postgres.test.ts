import { describe } from 'vitest';
import { openPostgresHarness, postgresTestUrl } from './postgres-test-schema.js';
import { describeMigrationsContract } from './sql-migrations.contract.js';

const url = postgresTestUrl();

describe.skipIf(url === undefined)('PostgreSQL (DATABASE_URL)', () => {
  describeMigrationsContract('PostgreSQL', () => openPostgresHarness(url ?? ''));
});
