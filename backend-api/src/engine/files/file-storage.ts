import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where file bytes live. Keys are engine-made (`<tenant>/<file id>`), never a name a caller chose. */
export interface FileStorage {
  /** Stores the bytes under `key`, replacing nothing: a reader sees all of them or none. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under `key`; rejects when there are none. */
  get(key: string): Promise<Buffer>;
  /** Removes the bytes under `key` (nothing when absent). */
  delete(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]{1,100}(\/[A-Za-z0-9_-]{1,100}){0,3}$/;

/** Refuses a key that could leave the storage root (`..`, absolute paths, odd characters). */
function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid file storage key: ${JSON.stringify(key)}`);
  return key;
}

/**
 * {@link FileStorage} in a local directory (the default: `<data directory>/files`, under `.wildo-saas/`). Writes go
 * to a temporary name first and are renamed into place, so a crash never leaves a half-written file under its key.
 *
 * @example
 * const storage = new LocalDirectoryFileStorage('.wildo-saas/data/files');
 * await storage.put('org_1/file_1', bytes);
 */
export class LocalDirectoryFileStorage implements FileStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.partial`;
    await writeFile(temporary, bytes, { flag: 'wx' });
    await rename(temporary, target);
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...checkedKey(key).split('/'));
  }
}
