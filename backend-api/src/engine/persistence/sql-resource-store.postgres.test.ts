import { describe } from 'vitest';
import { openPostgresHarness, postgresTestUrl } from './postgres-test-schema.js';
import { describeResourceStoreContract } from './resource-store.contract.js';
import { SqlResourceStore } from './sql-resource-store.js';

const url = postgresTestUrl();

describe.skipIf(url === undefined)('PostgreSQL (DATABASE_URL)', () => {
  describeResourceStoreContract('SqlResourceStore on PostgreSQL', async ({ now }) => {
    const harness = await openPostgresHarness(url ?? '');
    return {
      store: new SqlResourceStore({ database: harness.database, now }),
      // A replica has its own pool, as another process would.
      openReplica: async () => new SqlResourceStore({ database: await harness.openReplica(), now }),
      close: () => harness.close(),
    };
  });
});
