/** Rows and the number of rows a statement touched. */
export interface SqlQueryResult<TRow> {
  rows: TRow[];
  affectedRows: number;
}

/** Runs SQL. Parameters use `$1, $2, ...`; the same statement text runs on PGlite and on PostgreSQL. */
export interface SqlExecutor {
  query<TRow = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlQueryResult<TRow>>;
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
  close(): Promise<void>;
}

/** A schema migration: applied once, in `id` order, never edited after release (checked by checksum). */
export interface SqlMigration {
  /** Sortable and unique, e.g. `0001_identity`. */
  id: string;
  sql: string;
}
