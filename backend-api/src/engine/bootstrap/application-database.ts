import path from 'node:path';
import type { Logger } from '../logging/index.js';
import { openSqlDatabase, type SqlDatabase } from '../persistence/index.js';

/** Where an application's records live: PostgreSQL at `databaseUrl`, else PGlite under `dataDir`. */
export interface ApplicationDatabaseLocation {
  databaseUrl?: string;
  /** The data directory (`WILDO_DATA_DIR`); the embedded database is in its `pglite/` folder. */
  dataDir?: string;
}

/** The embedded database's folder inside a data directory. */
export function embeddedDatabaseDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/**
 * Opens the application's database the way the backend does, for the backend itself and for operator commands
 * run beside it: PostgreSQL when `databaseUrl` is set, else PGlite under `<dataDir>/pglite` (in memory without a
 * data directory).
 *
 * @example
 * const db = await openApplicationDatabase({ dataDir: '.wildo-saas/data', logger });
 */
export function openApplicationDatabase(
  location: ApplicationDatabaseLocation & { logger: Logger; searchPath?: string },
): Promise<SqlDatabase> {
  return openSqlDatabase({
    logger: location.logger,
    ...(location.databaseUrl ? { databaseUrl: location.databaseUrl } : {}),
    ...(location.dataDir ? { dataDir: embeddedDatabaseDir(location.dataDir) } : {}),
    ...(location.searchPath ? { searchPath: location.searchPath } : {}),
  });
}
