import { openTestSchema } from '../../testing/test-database.js';
import { describeMigrationsContract } from './sql-migrations.contract.js';

describeMigrationsContract('PGlite', async () => {
  const database = await openTestSchema();
  // The worker's embedded database (a schema of this file's own); a replica in the same process shares it.
  return { database, openReplica: async () => database, close: () => database.close() };
});
