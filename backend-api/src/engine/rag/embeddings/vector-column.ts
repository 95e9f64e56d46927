import type { SqlDatabase, SqlExecutor } from '../../persistence/index.js';
import { RAG_CHUNKS_TABLE as CHUNKS } from '../rag.migrations.js';

const ensured = new WeakMap<SqlDatabase, Promise<boolean>>();

/**
 * Adds the chunks' `embedding vector` column where pgvector is installed (once per database object) and says
 * whether the vector arm can run. PostgreSQL without pgvector answers false: the arm is reported unavailable.
 * The column has no fixed length, so a model change needs no migration: each vector carries its model and dims.
 */
export function ensureVectorColumn(database: SqlDatabase): Promise<boolean> {
  let done = ensured.get(database);
  if (!done) {
    done = addColumn(database);
    ensured.set(database, done);
    // A failure is retried at the next call rather than remembered.
    done.catch(() => ensured.delete(database));
  }
  return done;
}

async function addColumn(database: SqlDatabase): Promise<boolean> {
  if (!database.info.vector) return false;
  if (await hasColumn(database)) return true;
  await database.query(`ALTER TABLE ${CHUNKS} ADD COLUMN IF NOT EXISTS embedding vector`);
  return true;
}

async function hasColumn(executor: SqlExecutor): Promise<boolean> {
  const { rows } = await executor.query(
    `SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'embedding' AND NOT attisdropped`,
    [CHUNKS],
  );
  return rows.length > 0;
}

/** A vector as pgvector's text input (`[0.1,0.2]`), sent as a parameter and cast with `::vector`. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}
