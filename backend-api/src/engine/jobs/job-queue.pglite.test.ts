import { openTestSchema } from '../../testing/test-database.js';
import { describeJobQueueContract } from './job-queue.contract.js';

describeJobQueueContract('JobQueueService on PGlite', async () => {
  const database = await openTestSchema();
  // One embedded database per process: a second replica in this process shares its handle.
  return { database, openReplica: async () => database, close: () => database.close() };
});
