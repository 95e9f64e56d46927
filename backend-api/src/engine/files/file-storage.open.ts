import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDirectoryFileStorage } from './file-storage.js';

/**
 * The default file storage: `<dataDir>/files` (under `.wildo-saas/` by default), or, without a data directory (an
 * in-memory database), a temporary directory removed at shutdown, so files last exactly as long as their records.
 */
export async function openFileStorage(
  dataDir: string | undefined,
  owned: (() => Promise<void>)[],
): Promise<LocalDirectoryFileStorage> {
  if (dataDir) return new LocalDirectoryFileStorage(path.join(dataDir, 'files'));
  const temporary = await mkdtemp(path.join(tmpdir(), 'wildo-files-'));
  owned.push(() => rm(temporary, { recursive: true, force: true }));
  return new LocalDirectoryFileStorage(temporary);
}
