import { openTestSchema } from '../../testing/test-database.js';
import { describeResourceStoreContract } from './resource-store.contract.js';
import { SqlResourceStore } from './sql-resource-store.js';

describeResourceStoreContract('SqlResourceStore on PGlite', async ({ now }) => {
  const database = await openTestSchema();
  return {
    store: new SqlResourceStore({ database, now }),
    // The worker's embedded database (a schema of this file's own): a second replica shares it, as two stores in one process would.
    openReplica: async () => new SqlResourceStore({ database, now }),
    close: () => database.close(),
  };
});
