import { createPgliteDatabase } from './pglite-database.js';
import { describeMigrationsContract } from './sql-migrations.contract.js';

describeMigrationsContract('PGlite', async () => {
  const database = await createPgliteDatabase();
  // One embedded connection: a replica in the same process shares it.
  return { database, openReplica: async () => database, close: () => database.close() };
});
