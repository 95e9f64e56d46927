/** Rows and the number of rows a statement touched. */
export interface SqlQueryResult<TRow> {
  rows: TRow[];
  affectedRows: number;
}

/** Per-statement hints. */
export interface SqlQueryOptions {
  /**
   * The text is one of a small, fixed set that runs often with different parameters: the engine may
   * keep it prepared per connection (PostgreSQL: a named statement, about twice as fast for a short
   * lookup). Never set it for text built from unbounded input.
   */
  prepare?: boolean;
}

/**
 * Runs SQL. Parameters use `$1, $2, ...`; the same statement text runs on PGlite and on PostgreSQL.
 * Both engines return the same values: int8 as decimal strings, timestamptz as `Date`, `date` as
 * `YYYY-MM-DD`, json/jsonb parsed; `affectedRows` counts rows written by INSERT/UPDATE/DELETE/MERGE
 * (0 for reads and DDL).
 */
export interface SqlExecutor {
  query<TRow = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: SqlQueryOptions,
  ): Promise<SqlQueryResult<TRow>>;
  /** Several statements without parameters (migrations). PGlite refuses multi-statement prepared queries. */
  exec(sql: string): Promise<void>;
}

/** Which engine answers, and what it can do. */
export interface SqlDatabaseInfo {
  dialect: 'pglite' | 'postgres';
  /** Whether the `vector` extension is installed and usable. */
  vector: boolean;
}

/** A SQL database: PGlite (embedded default) or PostgreSQL (`DATABASE_URL`). */
export interface SqlDatabase extends SqlExecutor {
  readonly info: SqlDatabaseInfo;
  /** Runs `fn` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Embedded on disk only: records in the data directory's lock that this process serves `url`, so a second
   * process refused the directory can say which backend holds it.
   */
  noteServingUrl?(url: string): Promise<void>;
  /** Whether the database answers a statement now: the health check's question (false on any failure, never throws). */
  checkHealth(): Promise<boolean>;
  close(): Promise<void>;
}

/** {@link SqlDatabase.checkHealth} for an executor: a trivial statement that must come back. */
export function answersStatements(executor: SqlExecutor): Promise<boolean> {
  return executor.query('SELECT 1').then(
    () => true,
    () => false,
  );
}

/** A schema migration: applied once, in `id` order, never edited after release (checked by checksum). */
export interface SqlMigration {
  /** Sortable and unique, e.g. `0001_identity`. */
  id: string;
  sql: string;
}
