import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logging/index.js';
import { runMigrations } from '../persistence/index.js';
import { openPostgresHarness, postgresTestUrl } from '../persistence/postgres-test-schema.js';
import type { SqlDatabaseHarness } from '../persistence/sql-database.contract.js';
import { describeFileStorageContract } from './file-storage.contract.js';
// Imported as an application does: the storage replicas share is public.
import { DatabaseFileStorage, readAllBytes } from '@wildo/backend-api';
import { FILES_MIGRATIONS } from './files.migrations.js';

// The storage replicas share: the contract on PostgreSQL, and bytes written through one pool read through another.

const url = postgresTestUrl();

describe.skipIf(url === undefined)('DatabaseFileStorage on PostgreSQL (DATABASE_URL)', () => {
  let harness: SqlDatabaseHarness;
  let storage: DatabaseFileStorage;
  beforeAll(async () => {
    harness = await openPostgresHarness(url ?? '');
    await runMigrations(harness.database, FILES_MIGRATIONS, createSilentLogger());
    storage = new DatabaseFileStorage(harness.database);
  });
  afterAll(() => harness?.close());

  describeFileStorageContract('DatabaseFileStorage (PostgreSQL)', () => storage);

  it('reads on a second replica what the first wrote, and refuses a concurrent second write under the key', async () => {
    const other = new DatabaseFileStorage(await harness.openReplica());
    const results = await Promise.allSettled([
      storage.write('pg/raced', Buffer.from('from replica one')),
      other.write('pg/raced', Buffer.from('from replica two')),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const winner = results[0].status === 'fulfilled' ? 'from replica one' : 'from replica two';
    expect((await readAllBytes(other, 'pg/raced')).toString()).toBe(winner);
    expect((await readAllBytes(storage, 'pg/raced')).toString()).toBe(winner);
  });
});
