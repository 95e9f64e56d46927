import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { createSilentLogger, type Logger } from '../logging/index.js';
import { acquireDataDirectoryLock, type DataDirectoryLock } from './data-directory-lock.js';
import {
  answersStatements,
  type SqlDatabase,
  type SqlDatabaseInfo,
  type SqlExecutor,
  type SqlQueryOptions,
  type SqlQueryResult,
} from './sql-database.js';
import { NORMALIZED_TEXT_PARSERS } from './sql-type-parsers.js';

/** Options of {@link createPgliteDatabase}. */
export interface PgliteDatabaseOptions {
  /** Directory of the data files (created when missing). Omitted: an in-memory database (tests). */
  dataDir?: string;
  /** Defaults to a silent logger. */
  logger?: Logger;
  /**
   * A dump (`PGlite.dumpDataDir`) to start from instead of initializing an empty cluster; used only when the
   * directory holds no database yet. Initializing costs seconds, a dump a fraction of that.
   */
  loadDataDir?: Blob;
}

type PgliteRunner = Pick<Transaction, 'query' | 'exec'>;

/** Adapts PGlite's `query`/`exec` (of the database or of one transaction) to {@link SqlExecutor}. */
class PgliteExecutor implements SqlExecutor {
  constructor(protected readonly runner: PgliteRunner) {}

  /** `options.prepare` is ignored: PGlite runs in-process, so a parse costs no round trip. */
  async query<TRow = Record<string, unknown>>(
    text: string,
    params: readonly unknown[] = [],
    _options?: SqlQueryOptions,
  ): Promise<SqlQueryResult<TRow>> {
    const result = await this.runner.query<TRow>(text, params as unknown[]);
    return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    await this.runner.exec(sql);
  }
}

/**
 * {@link SqlDatabase} on an embedded PGlite (PostgreSQL in WASM): one connection, queries serialized. On disk it
 * holds the directory's lock until closed.
 */
class PgliteDatabase extends PgliteExecutor implements SqlDatabase {
  private closing: Promise<void> | undefined;

  constructor(
    private readonly pglite: PGlite,
    readonly info: SqlDatabaseInfo,
    private readonly lock?: DataDirectoryLock,
  ) {
    super(pglite);
  }

  async noteServingUrl(url: string): Promise<void> {
    await this.lock?.noteServingUrl(url);
  }

  checkHealth(): Promise<boolean> {
    return answersStatements(this);
  }

  /**
   * PGlite holds its transaction mutex for the whole callback: statements sent to the database (not
   * to `tx`) from inside `fn` would wait forever, so callers must use `tx`.
   */
  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.pglite.transaction(async (tx) => fn(new PgliteExecutor(tx)));
  }

  close(): Promise<void> {
    // The lock goes even if PGlite fails to close: nothing in this process writes through it any more.
    this.closing ??= this.closeThenRelease();
    return this.closing;
  }

  private async closeThenRelease(): Promise<void> {
    try {
      await this.pglite.close();
    } finally {
      await this.lock?.release();
    }
  }
}

/** Loads pgvector; its absence degrades vector search, it never prevents the database from opening. */
async function enableVector(pglite: PGlite, logger: Logger): Promise<boolean> {
  try {
    await pglite.exec('CREATE EXTENSION IF NOT EXISTS vector');
    return true;
  } catch (error) {
    logger.warn('pgvector could not be enabled on PGlite; vector search is unavailable', { error: String(error) });
    return false;
  }
}

async function openPglite(
  dataDir: string | undefined,
  { logger, loadDataDir }: { logger: Logger; loadDataDir: Blob | undefined },
  lock?: DataDirectoryLock,
): Promise<SqlDatabase> {
  const pglite = await PGlite.create({
    ...(dataDir === undefined ? {} : { dataDir }),
    // PGlite refuses a dump over an existing cluster; an existing database is simply opened.
    ...(loadDataDir === undefined || (dataDir !== undefined && existsSync(join(dataDir, 'PG_VERSION')))
      ? {}
      : { loadDataDir }),
    extensions: { vector },
    parsers: NORMALIZED_TEXT_PARSERS,
  });
  const vectorEnabled = await enableVector(pglite, logger);
  return new PgliteDatabase(pglite, { dialect: 'pglite', vector: vectorEnabled }, lock);
}

/**
 * Opens an embedded PGlite database with the `vector` extension: in memory without `dataDir`, on disk
 * (directory created) otherwise. On disk it first takes the directory's exclusive lock (see
 * {@link acquireDataDirectoryLock}): PGlite itself lets two processes open one directory, and they
 * overwrite each other's writes. Refused with a `DataDirectoryLockedError` while another holds it;
 * `close()` releases it.
 *
 * Durability: PGlite runs PostgreSQL with `fsync` off, and its Node file system has no fsync, so a committed
 * write has reached the operating system (surviving a crash or SIGKILL of this process) but not necessarily
 * the disk (a power loss may lose the last writes). Use PostgreSQL where that matters.
 *
 * @example
 * const db = await createPgliteDatabase({ dataDir: '.wildo-saas/data/pglite' });
 * const { rows } = await db.query<{ n: number }>('SELECT 1 AS n');
 */
export async function createPgliteDatabase(options: PgliteDatabaseOptions = {}): Promise<SqlDatabase> {
  const opening = { logger: options.logger ?? createSilentLogger(), loadDataDir: options.loadDataDir };
  if (options.dataDir === undefined) return openPglite(undefined, opening);
  // Absolute, so the data does not move with the working directory of whoever starts the process.
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const lock = await acquireDataDirectoryLock(dataDir);
  try {
    return await openPglite(dataDir, opening, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
}
