import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDirectoryFileStorage } from './file-storage.js';

describe('LocalDirectoryFileStorage', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'wildo-storage-test-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stores, reads and deletes bytes under an engine-made key, leaving no partial file behind', async () => {
    const storage = new LocalDirectoryFileStorage(root);
    await storage.put('ab/file_ab12', new Uint8Array([1, 2, 3]));
    expect([...(await storage.get('ab/file_ab12'))]).toEqual([1, 2, 3]);
    expect(await readdir(path.join(root, 'ab'))).toEqual(['file_ab12']);
    await storage.delete('ab/file_ab12');
    await expect(storage.get('ab/file_ab12')).rejects.toThrow();
  });

  it('refuses keys that could leave its directory', async () => {
    const inner = path.join(root, 'inner');
    const storage = new LocalDirectoryFileStorage(inner);
    for (const key of ['../escape', '/etc/passwd', 'a/../../b', 'a\\b', '', 'a//b'])
      await expect(storage.put(key, new Uint8Array([0])), key).rejects.toThrow('Invalid file storage key');
    // Nothing was written, inside its directory (never created) or beside it.
    expect((await readdir(root)).sort()).toEqual(['ab']);
  });
});
