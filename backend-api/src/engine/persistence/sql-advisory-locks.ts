import type { SqlExecutor } from './sql-database.js';

/**
 * Transaction-scoped PostgreSQL advisory locks that serialize schema work across replicas. The first
 * key names the purpose; the second is the current schema, so isolated schemas (tests, tenants of a
 * shared server) do not wait for each other. Released by COMMIT or ROLLBACK, never leaked by a crash.
 */
export const ADVISORY_LOCK_PURPOSES = {
  migrations: 0x57_4c_01,
  resourceSchema: 0x57_4c_02,
  extensions: 0x57_4c_03,
} as const;

/** One of {@link ADVISORY_LOCK_PURPOSES}. */
export type AdvisoryLockPurpose = keyof typeof ADVISORY_LOCK_PURPOSES;

const LOCK_SQL = "SELECT pg_advisory_xact_lock($1::int4, hashtext(coalesce(current_schema(), '')))";

/** Waits for the lock of `purpose`; must run inside a transaction (it is released when that ends). */
export async function lockForTransaction(tx: SqlExecutor, purpose: AdvisoryLockPurpose): Promise<void> {
  await tx.query(LOCK_SQL, [ADVISORY_LOCK_PURPOSES[purpose]]);
}
