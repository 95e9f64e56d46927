import { createHash } from 'node:crypto';
import type { Logger } from '../logging/index.js';
import { lockForTransaction } from './sql-advisory-locks.js';
import type { SqlDatabase, SqlExecutor, SqlMigration } from './sql-database.js';

/** What {@link runMigrations} did. */
export interface MigrationRunResult {
  /** Ids applied by this call, in order. */
  applied: string[];
  /** Ids that were already applied (by an earlier run or by another replica). */
  skipped: string[];
}

/** The table that records applied migrations. */
export const MIGRATIONS_TABLE = 'wildo_schema_migrations';

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  id text PRIMARY KEY,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL
)`;

interface PreparedMigration extends SqlMigration {
  checksum: string;
}

/** SHA-256 of the SQL; line endings are normalized so a Windows checkout does not look like an edit. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/** Refuses empty or duplicated ids before touching the database; returns the migrations in id order. */
function prepareMigrations(migrations: readonly SqlMigration[]): PreparedMigration[] {
  const seen = new Set<string>();
  for (const { id } of migrations) {
    if (id.trim() === '')
      throw new Error('A migration has an empty id. Give every migration a unique, sortable id such as 0001_identity.');
    if (seen.has(id)) throw new Error(`Migration id "${id}" is used twice. Rename one of them to a new, unique id.`);
    seen.add(id);
  }
  return migrations
    .map((migration) => ({ ...migration, checksum: migrationChecksum(migration.sql) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function checksumMismatch(id: string): Error {
  return new Error(
    `Migration "${id}" was changed after it was applied (its SQL checksum differs). ` +
      `Restore its original SQL and put the change in a new migration with a later id.`,
  );
}

/** Creates the bookkeeping table and reads what is applied; refuses when an applied migration was edited. */
async function readApplied(db: SqlDatabase, known: readonly PreparedMigration[]): Promise<Map<string, string>> {
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'migrations');
    await tx.query(CREATE_TABLE);
    const { rows } = await tx.query<{ id: string; checksum: string }>(`SELECT id, checksum FROM ${MIGRATIONS_TABLE}`);
    const applied = new Map(rows.map((row) => [row.id, row.checksum]));
    for (const migration of known) {
      const checksum = applied.get(migration.id);
      if (checksum !== undefined && checksum !== migration.checksum) throw checksumMismatch(migration.id);
    }
    return applied;
  });
}

/** Applies one migration under the lock, unless another replica did it meanwhile. True when applied here. */
async function applyOne(tx: SqlExecutor, migration: PreparedMigration): Promise<boolean> {
  await lockForTransaction(tx, 'migrations');
  const { rows } = await tx.query<{ checksum: string }>(`SELECT checksum FROM ${MIGRATIONS_TABLE} WHERE id = $1`, [
    migration.id,
  ]);
  const existing = rows[0];
  if (existing !== undefined) {
    if (existing.checksum !== migration.checksum) throw checksumMismatch(migration.id);
    return false;
  }
  try {
    await tx.exec(migration.sql);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration "${migration.id}" failed and was rolled back: ${reason}. Fix its SQL and start again.`, {
      cause: error,
    });
  }
  await tx.query(`INSERT INTO ${MIGRATIONS_TABLE} (id, checksum, applied_at) VALUES ($1, $2, now())`, [
    migration.id,
    migration.checksum,
  ]);
  return true;
}

/**
 * Applies the migrations not yet recorded in `wildo_schema_migrations`, in id order, each in its own
 * transaction, serialized across replicas by an advisory lock. Refuses (throws, applying nothing)
 * when ids are duplicated or an applied migration's SQL changed. Idempotent.
 *
 * @example
 * await runMigrations(db, [{ id: '0001_identity', sql: 'CREATE TABLE users (id text PRIMARY KEY);' }], logger);
 */
export async function runMigrations(
  db: SqlDatabase,
  migrations: readonly SqlMigration[],
  logger: Logger,
): Promise<MigrationRunResult> {
  const prepared = prepareMigrations(migrations);
  const applied = await readApplied(db, prepared);
  const unknown = [...applied.keys()].filter((id) => !prepared.some((migration) => migration.id === id));
  // A newer replica may already have applied migrations this build does not know: not an error in a rolling deploy.
  if (unknown.length > 0) logger.warn('the database has migrations this build does not know', { ids: unknown });
  const result: MigrationRunResult = { applied: [], skipped: [] };
  for (const migration of prepared) {
    const done = applied.has(migration.id) ? false : await db.transaction((tx) => applyOne(tx, migration));
    if (done) logger.info('migration applied', { id: migration.id });
    (done ? result.applied : result.skipped).push(migration.id);
  }
  return result;
}
