import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SqlDatabase } from '../persistence/index.js';
import { DatabaseFileStorage } from './file-storage.database.js';
import { LocalDirectoryFileStorage, type FileStorage } from './file-storage.js';

/** Which storage holds file bytes: a local directory (the embedded default) or the application's database. */
export type FileStorageKind = 'local' | 'database';

/** The file storage kinds, as configuration names them (`WILDO_FILE_STORAGE`). */
export const FILE_STORAGE_KINDS: readonly FileStorageKind[] = ['local', 'database'];

/** What {@link openFileStorage} needs. */
export interface OpenFileStorageOptions {
  /** Default `local`. */
  kind?: FileStorageKind;
  /** The application's database (used by `database`). */
  database: SqlDatabase;
  /** The data directory (`local` keeps files in `<dataDir>/files`). */
  dataDir?: string;
}

/**
 * The configured file storage. `database` keeps bytes in the application's database, shared by every replica on it.
 * `local` (the default) keeps them in `<dataDir>/files` (under `.wildo-saas/` by default), or, without a data
 * directory (an in-memory database), in a temporary directory removed at shutdown, so files last exactly as long as
 * their records.
 */
export async function openFileStorage(
  options: OpenFileStorageOptions,
  owned: (() => Promise<void>)[],
): Promise<FileStorage> {
  if (options.kind === 'database') return new DatabaseFileStorage(options.database);
  if (options.dataDir) return new LocalDirectoryFileStorage(path.join(options.dataDir, 'files'));
  const temporary = await mkdtemp(path.join(tmpdir(), 'wildo-files-'));
  owned.push(() => rm(temporary, { recursive: true, force: true }));
  return new LocalDirectoryFileStorage(temporary);
}
