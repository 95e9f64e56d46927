import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase } from './postgres-database.js';
import {
  createPostgresTestSchema,
  openPostgresHarness,
  postgresTestUrl,
  type PostgresTestSchema,
} from './postgres-test-schema.js';
import { createRecordingLogger } from './resource-store.contract-fixtures.js';
import { describeSqlDatabaseContract } from './sql-database.contract.js';
import type { SqlDatabase } from './sql-database.js';

const url = postgresTestUrl();

describe.skipIf(url === undefined)('PostgreSQL (DATABASE_URL)', () => {
  const connectionString = url ?? '';
  describeSqlDatabaseContract('PostgreSQL', () => openPostgresHarness(connectionString));

  describe('createPostgresDatabase', () => {
    let testSchema: PostgresTestSchema | undefined;
    const opened: SqlDatabase[] = [];
    const open = async (options: { maxConnections?: number } = {}) => {
      const logger = createRecordingLogger();
      const database = await createPostgresDatabase({
        connectionString,
        searchPath: testSchema?.schema ?? '',
        logger,
        ...options,
      });
      opened.push(database);
      return { database, logger };
    };
    beforeAll(async () => {
      testSchema = await createPostgresTestSchema(connectionString);
    });
    afterAll(async () => {
      await Promise.all(opened.map((database) => database.close()));
      await testSchema?.drop();
    });

    it('reports the postgres dialect and whether pgvector is available', async () => {
      const { database } = await open();
      const available = await database.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
      expect(database.info).toEqual({ dialect: 'postgres', vector: available.rows.length > 0 });
    });

    it('applies the search path to every pooled connection', async () => {
      const { database } = await open({ maxConnections: 3 });
      // Held open together, these run on three different connections.
      const schemas = await Promise.all(
        [1, 2, 3].map(() =>
          database.transaction(
            async (tx) => (await tx.query<{ s: string }>('SELECT current_schema() AS s, pg_sleep(0.05)')).rows[0]?.s,
          ),
        ),
      );
      expect(schemas).toEqual([testSchema?.schema, testSchema?.schema, testSchema?.schema]);
    });

    it('refuses a search path that is not a list of schema names', async () => {
      await expect(
        createPostgresDatabase({ connectionString, searchPath: 'x -c statement_timeout=1' }),
      ).rejects.toThrow(/searchPath/);
    });

    it('logs an idle connection that drops, and keeps serving', async () => {
      const { database, logger } = await open({ maxConnections: 1 });
      const { rows } = await database.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const { database: other } = await open();
      await other.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      await vi.waitFor(() => expect(logger.lines.some((line) => line.level === 'error')).toBe(true), {
        timeout: 5_000,
      });
      expect((await database.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });

    it('survives a connection that drops inside a transaction, and keeps serving', async () => {
      const { database } = await open({ maxConnections: 1 });
      await expect(
        database.transaction((tx) => tx.query('SELECT pg_terminate_backend(pg_backend_pid())')),
      ).rejects.toThrow();
      expect((await database.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });

    it('refuses to open when the server does not answer', async () => {
      await expect(
        createPostgresDatabase({ connectionString: 'postgres://postgres@127.0.0.1:1/test' }),
      ).rejects.toThrow();
    });
  });
});
