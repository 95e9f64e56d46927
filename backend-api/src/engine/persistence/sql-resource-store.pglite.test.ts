import { createPgliteDatabase } from './pglite-database.js';
import { describeResourceStoreContract } from './resource-store.contract.js';
import { SqlResourceStore } from './sql-resource-store.js';

describeResourceStoreContract('SqlResourceStore on PGlite', async ({ now }) => {
  const database = await createPgliteDatabase();
  return {
    store: new SqlResourceStore({ database, now }),
    // PGlite is one embedded connection: a second replica shares it, as two stores in one process would.
    openReplica: async () => new SqlResourceStore({ database, now }),
    close: () => database.close(),
  };
});
