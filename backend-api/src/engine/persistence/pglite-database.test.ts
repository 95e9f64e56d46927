import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIRECTORY_LOCK_FILE } from './data-directory-lock.js';
import { DataDirectoryLockedError } from './data-directory-lock.errors.js';
import { openTestSchema } from '../../testing/test-database.js';
import { createPgliteDatabase } from './pglite-database.js';
import { describeSqlDatabaseContract, HARNESS_TIMEOUT_MS } from './sql-database.contract.js';
import type { SqlDatabase } from './sql-database.js';

// In memory: the test worker's PGlite (opened by createPgliteDatabase), in a schema of this file's own.
describeSqlDatabaseContract('PGlite in memory', async () => {
  const database = await openTestSchema();
  return { database, openReplica: async () => database, close: () => database.close() };
});

describe('createPgliteDatabase', () => {
  let database: SqlDatabase | undefined;
  beforeAll(async () => {
    database = await openTestSchema();
  }, HARNESS_TIMEOUT_MS);
  afterAll(async () => {
    await database?.close();
  });

  it('reports the pglite dialect with vector support', () => {
    expect(database?.info).toEqual({ dialect: 'pglite', vector: true });
  });

  it('answers vector distance queries', async () => {
    const { rows } = await (database as SqlDatabase).query<{ distance: number }>(
      "SELECT '[1,0,0]'::vector <=> '[0,1,0]'::vector AS distance",
    );
    expect(rows[0]?.distance).toBeCloseTo(1);
  });

  it(
    'keeps data on disk across reopening, creating the directory; holds its lock until closed; closes idempotently',
    async () => {
      const parent = await mkdtemp(join(tmpdir(), 'wildo-pglite-'));
      const dataDir = join(parent, 'nested', 'data');
      try {
        const first = await createPgliteDatabase({ dataDir });
        await first.exec("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here');");
        // A second open of the same directory, here in the same process, is refused before PGlite touches it.
        const second = await createPgliteDatabase({ dataDir }).catch((error: unknown) => error);
        expect(second).toBeInstanceOf(DataDirectoryLockedError);
        expect((second as DataDirectoryLockedError).message).toMatch(
          /is already open in this process \(pid \d+, .*\): close it first/,
        );
        expect((await first.query('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
        await first.close();
        expect(existsSync(join(dataDir, DATA_DIRECTORY_LOCK_FILE))).toBe(false);
        await expect(first.close()).resolves.toBeUndefined();
        const reopened = await createPgliteDatabase({ dataDir });
        try {
          expect((await reopened.query('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
        } finally {
          await reopened.close();
        }
      } finally {
        await rm(parent, { recursive: true, force: true });
      }
    },
    HARNESS_TIMEOUT_MS,
  );
});
