import { createPgliteDatabase } from '../../persistence/pglite-database.js';
import { describeTokenBudgetContract } from './token-budget.contract.js';

describeTokenBudgetContract('PGlite', async () => {
  const database = await createPgliteDatabase();
  // One embedded connection: a replica in the same process shares it.
  return { database, openReplica: async () => database, close: () => database.close() };
});
