import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresDatabase } from './postgres-database.js';
import type { SqlDatabaseHarness } from './sql-database.contract.js';
import type { SqlDatabase } from './sql-database.js';

/** A schema of its own on the test server, so test files running in parallel never see each other. */
export interface PostgresTestSchema {
  readonly connectionString: string;
  readonly schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/** The test server's URL (`DATABASE_URL`), or undefined when PostgreSQL tests are skipped. */
export function postgresTestUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  return url === undefined || url === '' ? undefined : url;
}

/** Creates a randomly named schema (`wt_<hex>`) for one test file. */
export async function createPostgresTestSchema(connectionString: string): Promise<PostgresTestSchema> {
  const schema = `wt_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  return {
    connectionString,
    schema,
    async drop() {
      const client = new pg.Client({ connectionString });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A {@link SqlDatabaseHarness} on a fresh schema: every pool (the database and each replica) has its
 * `search_path` set to it; closing ends the pools and drops the schema.
 */
export async function openPostgresHarness(connectionString: string): Promise<SqlDatabaseHarness> {
  const testSchema = await createPostgresTestSchema(connectionString);
  const open = () => createPostgresDatabase({ connectionString, searchPath: testSchema.schema, maxConnections: 4 });
  const replicas: SqlDatabase[] = [];
  try {
    const database = await open();
    return {
      database,
      async openReplica() {
        const replica = await open();
        replicas.push(replica);
        return replica;
      },
      async close() {
        await Promise.all([database, ...replicas].map((db) => db.close()));
        await testSchema.drop();
      },
    };
  } catch (error) {
    await testSchema.drop();
    throw error;
  }
}
