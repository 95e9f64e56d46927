import type { Logger } from '../logging/index.js';
import { createPgliteDatabase } from './pglite-database.js';
import { createPostgresDatabase } from './postgres-database.js';
import type { SqlDatabase } from './sql-database.js';

/** Options of {@link openSqlDatabase}. */
export interface OpenSqlDatabaseOptions {
  /** PostgreSQL connection URL (`DATABASE_URL`). When set, PostgreSQL is used. */
  databaseUrl?: string;
  /** PGlite data directory when no `databaseUrl` is set. Omitted: in memory (nothing survives a restart). */
  dataDir?: string;
  logger: Logger;
  /** PostgreSQL only: pool size and search path (see {@link createPostgresDatabase}). */
  maxConnections?: number;
  searchPath?: string;
}

/** The URL as it may appear in logs: no password, no query string (which can carry one too). */
export function redactDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password !== '') url.password = 'redacted';
    url.search = '';
    return url.toString();
  } catch {
    return '(unparsable database URL)';
  }
}

/**
 * Opens the application's database: PostgreSQL when `databaseUrl` is set, else embedded PGlite
 * (on disk under `dataDir`, or in memory). Logs which one, never the password.
 *
 * @example
 * const db = await openSqlDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '.wildo-saas/data', logger });
 */
export async function openSqlDatabase(options: OpenSqlDatabaseOptions): Promise<SqlDatabase> {
  const { databaseUrl, dataDir, logger } = options;
  if (databaseUrl !== undefined && databaseUrl !== '') {
    const db = await createPostgresDatabase({
      connectionString: databaseUrl,
      logger,
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options.searchPath === undefined ? {} : { searchPath: options.searchPath }),
    });
    logger.info('database: PostgreSQL', { url: redactDatabaseUrl(databaseUrl), vector: db.info.vector });
    return db;
  }
  const db = await createPgliteDatabase({ logger, ...(dataDir === undefined ? {} : { dataDir }) });
  if (dataDir === undefined) {
    logger.warn('database: PGlite in memory; every record is lost when the process stops', { vector: db.info.vector });
  } else {
    logger.info('database: PGlite on disk', { dataDir, vector: db.info.vector });
  }
  return db;
}
