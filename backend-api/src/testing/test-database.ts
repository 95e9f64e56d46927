import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createPgliteDatabase } from '../engine/persistence/pglite-database.js';
import { pgliteTemplateDump } from './pglite-template.js';
import type { SqlDatabase, SqlExecutor, SqlQueryOptions, SqlQueryResult } from '../engine/persistence/sql-database.js';

// Booting PGlite (WASM compile, initdb) costs seconds; a test worker boots one and hands each test file a
// schema of its own in it. Files run one at a time in a worker, so the one connection's search_path is theirs.
let workerDatabase: Promise<SqlDatabase> | undefined;

function sharedPglite(): Promise<SqlDatabase> {
  workerDatabase ??= pgliteTemplateDump().then((loadDataDir) => createPgliteDatabase({ loadDataDir }));
  return workerDatabase;
}

/** A fresh, empty schema of the worker's PGlite database; closing drops it (the database stays open). */
class SchemaScopedDatabase implements SqlDatabase {
  private closing: Promise<void> | undefined;

  constructor(
    private readonly inner: SqlDatabase,
    readonly schema: string,
  ) {}

  get info() {
    return this.inner.info;
  }

  query<TRow = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: SqlQueryOptions,
  ): Promise<SqlQueryResult<TRow>> {
    return this.inner.query<TRow>(text, params, options);
  }

  exec(sql: string): Promise<void> {
    return this.inner.exec(sql);
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.inner.transaction(fn);
  }

  checkHealth(): Promise<boolean> {
    return this.inner.checkHealth();
  }

  close(): Promise<void> {
    this.closing ??= this.inner.exec(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE; SET search_path TO public`);
    return this.closing;
  }
}

/**
 * Opens an empty schema (`tf_<hex>`) in the test worker's embedded database and points the connection at it
 * (the `vector` extension stays reachable through `public`). For one test file at a time.
 */
export async function openTestSchema(): Promise<SqlDatabase> {
  const database = await sharedPglite();
  const schema = `tf_${randomBytes(6).toString('hex')}`;
  await database.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}, public`);
  return new SchemaScopedDatabase(database, schema);
}

/**
 * Registers an empty database for the current test file (opened before, dropped after all tests): a schema
 * of its own in the worker's PGlite. Tests share it and isolate themselves with fresh users and organizations.
 */
export function useTestDatabase(): () => SqlDatabase {
  let database: SqlDatabase | undefined;
  beforeAll(async () => {
    database = await openTestSchema();
  });
  afterAll(async () => {
    await database?.close();
  });
  return () => {
    if (!database) throw new Error('useTestDatabase(): the database is opened in beforeAll');
    return database;
  };
}
