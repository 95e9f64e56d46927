import type { SqlDatabase, SqlExecutor } from '../persistence/index.js';

/** The connection contract pg-boss accepts in place of its own pool (`db` option). */
export interface PgBossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss wraps its schema changes and maintenance in `BEGIN; ...; COMMIT;` sent without parameters. */
const WRAPPED_TRANSACTION = /^\s*BEGIN;([\s\S]*);\s*COMMIT;\s*$/;

/**
 * pg-boss over the application's own database handle, so jobs live beside the records that cause them.
 * Its `BEGIN; ...; COMMIT;` scripts run through `transaction` + `exec` (PGlite refuses several statements
 * in one prepared query, and a failed script must not leave the one embedded connection inside a
 * transaction); every other statement is one parameterized query.
 */
export function pgBossDatabase(database: SqlDatabase): PgBossDb {
  return {
    async executeSql(text, values) {
      const wrapped = values === undefined || values.length === 0 ? WRAPPED_TRANSACTION.exec(text) : null;
      if (wrapped?.[1] !== undefined) {
        const script = wrapped[1];
        await database.transaction((tx) => tx.exec(script));
        return { rows: [] };
      }
      return database.query(text, values ?? []);
    },
  };
}

/** pg-boss inside a caller's transaction: the job row commits or rolls back with the caller's own writes. */
export function pgBossTransaction(tx: SqlExecutor): PgBossDb {
  return { executeSql: (text, values) => tx.query(text, values ?? []) };
}

/**
 * Where the queue's tables live: in the connection's current schema when the deployment (or a test) chose
 * a dedicated one, so dropping that schema drops the queue with it; `wildo_jobs` beside `public`.
 */
export async function jobsSchemaFor(database: SqlDatabase): Promise<string> {
  const { rows } = await database.query<{ schema: string | null }>('SELECT current_schema() AS schema');
  const current = rows[0]?.schema;
  return current === undefined || current === null || current === 'public' ? 'wildo_jobs' : current;
}
