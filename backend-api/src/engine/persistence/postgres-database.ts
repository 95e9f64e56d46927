import { createHash } from 'node:crypto';
import pg from 'pg';
import { createSilentLogger, type Logger } from '../logging/index.js';
import { lockForTransaction } from './sql-advisory-locks.js';
import {
  answersStatements,
  type SqlDatabase,
  type SqlDatabaseInfo,
  type SqlExecutor,
  type SqlQueryOptions,
  type SqlQueryResult,
} from './sql-database.js';
import { affectedRowsOf, NORMALIZED_TEXT_PARSERS } from './sql-type-parsers.js';

/** Options of {@link createPostgresDatabase}. */
export interface PostgresDatabaseOptions {
  connectionString: string;
  /** Pool size. Default 10. */
  maxConnections?: number;
  /** Schemas every pooled connection searches, e.g. `wildo` or `t_ab12, public`. Default: the server's. */
  searchPath?: string;
  /** Shown in `pg_stat_activity`. Default `wildo`. */
  applicationName?: string;
  /**
   * Keep statements sent with `{ prepare: true }` prepared per connection (named statements). Default
   * true; turn off behind a pooler that cannot track them (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean;
  /** Defaults to a silent logger. */
  logger?: Logger;
}

/** Most distinct texts given a statement name; beyond it statements run unnamed (bounded memory). */
const MAX_PREPARED_STATEMENTS = 2_000;

/** Statement names by text, shared by a pool's connections (pg prepares each name once per connection). */
class PreparedStatementNames {
  private readonly names = new Map<string, string>();

  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MAX_PREPARED_STATEMENTS) {
      name = `wildo_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      this.names.set(text, name);
    }
    return name;
  }
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/** Validates a search path and renders it for the startup `options` (which splits on spaces). */
function searchPathOption(searchPath: string): string {
  const schemas = searchPath.split(',').map((schema) => schema.trim());
  if (schemas.some((schema) => !IDENTIFIER.test(schema))) {
    throw new Error('searchPath must be a comma-separated list of plain schema names (letters, digits, _ and $).');
  }
  return `-c search_path=${schemas.join(',')}`;
}

/** pg's parsers with the shared normalizations on top (per pool: the global `pg.types` stays untouched). */
const normalizedTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    const parser = format === 'binary' ? undefined : NORMALIZED_TEXT_PARSERS[oid];
    return parser ?? pg.types.getTypeParser(oid, format ?? 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

type PgRunner = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Adapts a pool or one checked-out client to {@link SqlExecutor}. */
class PostgresExecutor implements SqlExecutor {
  constructor(
    private readonly runner: PgRunner,
    protected readonly prepared: PreparedStatementNames | undefined,
  ) {}

  async query<TRow = Record<string, unknown>>(
    text: string,
    params: readonly unknown[] = [],
    options?: SqlQueryOptions,
  ): Promise<SqlQueryResult<TRow>> {
    const name = options?.prepare === true ? this.prepared?.nameOf(text) : undefined;
    const values = params as unknown[];
    const result = await this.runner.query(name === undefined ? { text, values } : { name, text, values });
    return { rows: result.rows as TRow[], affectedRows: affectedRowsOf(result.command, result.rowCount) };
  }

  /** Without parameters pg uses the simple protocol, which accepts several statements. */
  async exec(sql: string): Promise<void> {
    await this.runner.query(sql);
  }
}

/** An executor that refuses use after its transaction ended (a leaked `tx` would run outside it). */
class TransactionExecutor extends PostgresExecutor {
  ended = false;

  override query<TRow = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: SqlQueryOptions,
  ): Promise<SqlQueryResult<TRow>> {
    if (this.ended) return Promise.reject(new Error('This transaction has ended; use the database instead.'));
    return super.query<TRow>(text, params, options);
  }

  override exec(sql: string): Promise<void> {
    if (this.ended) return Promise.reject(new Error('This transaction has ended; use the database instead.'));
    return super.exec(sql);
  }
}

/** {@link SqlDatabase} on a `pg.Pool`. */
class PostgresDatabase extends PostgresExecutor implements SqlDatabase {
  info: SqlDatabaseInfo = { dialect: 'postgres', vector: false };
  private ending: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    prepared: PreparedStatementNames | undefined,
  ) {
    super(pool, prepared);
  }

  checkHealth(): Promise<boolean> {
    return answersStatements(this);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A checked-out client has no pool listener: without this, a dropped connection would crash the process.
    const onError = (error: Error): void => {
      this.logger.error('PostgreSQL connection failed during a transaction', { error: error.message });
    };
    client.on('error', onError);
    const tx = new TransactionExecutor(client, this.prepared);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = await this.rollback(client);
      throw error;
    } finally {
      tx.ended = true;
      // A broken client is destroyed and may still report its failure late: keep logging it.
      if (broken === undefined) client.off('error', onError);
      client.release(broken);
    }
  }

  /** Rolls back; returns the failure when the connection is unusable, so it is destroyed, not pooled. */
  private async rollback(client: pg.PoolClient): Promise<Error | undefined> {
    try {
      await client.query('ROLLBACK');
      return undefined;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  close(): Promise<void> {
    this.ending ??= this.pool.end();
    return this.ending;
  }
}

/** Enables pgvector when the server offers it; a server without it is supported (vector search off). */
async function detectVector(db: SqlDatabase, logger: Logger): Promise<boolean> {
  const available = await db.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  if (available.rows.length === 0) {
    logger.info('pgvector is not available on this PostgreSQL server; vector search is unavailable');
    return false;
  }
  try {
    // Serialized: concurrent CREATE EXTENSION IF NOT EXISTS from several replicas can still collide.
    await db.transaction(async (tx) => {
      await lockForTransaction(tx, 'extensions');
      await tx.exec('CREATE EXTENSION IF NOT EXISTS vector');
    });
  } catch (error) {
    logger.warn('pgvector is available but could not be enabled', { error: String(error) });
  }
  const installed = await db.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
  return installed.rows.length > 0;
}

/**
 * Opens a PostgreSQL connection pool, checks that the server answers and detects pgvector.
 *
 * @example
 * const db = await createPostgresDatabase({ connectionString: process.env.DATABASE_URL! });
 */
export async function createPostgresDatabase(options: PostgresDatabaseOptions): Promise<SqlDatabase> {
  const logger = options.logger ?? createSilentLogger();
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'wildo',
    types: normalizedTypes,
    ...(options.searchPath === undefined ? {} : { options: searchPathOption(options.searchPath) }),
  });
  // Idle clients that lose their connection are reported here; unhandled, the event would crash the process.
  pool.on('error', (error) => logger.error('idle PostgreSQL connection failed', { error: error.message }));
  const prepared = options.preparedStatements === false ? undefined : new PreparedStatementNames();
  const db = new PostgresDatabase(pool, logger, prepared);
  try {
    db.info = { dialect: 'postgres', vector: await detectVector(db, logger) };
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
