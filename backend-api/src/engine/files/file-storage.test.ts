import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/test-database.js';
import { createSilentLogger } from '../logging/index.js';
import { runMigrations } from '../persistence/index.js';
import { describeFileStorageContract } from './file-storage.contract.js';
import { DatabaseFileStorage } from './file-storage.database.js';
import { LocalDirectoryFileStorage, readAllBytes } from './file-storage.js';
import { FILES_MIGRATIONS } from './files.migrations.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wildo-storage-test-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeFileStorageContract(
  'LocalDirectoryFileStorage',
  () => new LocalDirectoryFileStorage(path.join(root, 'contract')),
);

const database = useTestDatabase();
let databaseStorage: DatabaseFileStorage | undefined;
beforeAll(async () => {
  await runMigrations(database(), FILES_MIGRATIONS, createSilentLogger());
  databaseStorage = new DatabaseFileStorage(database());
});
describeFileStorageContract('DatabaseFileStorage (embedded)', () => databaseStorage as DatabaseFileStorage);

describe('LocalDirectoryFileStorage', () => {
  it('leaves no partial file behind, beside the stored one or after a refused write', async () => {
    const storage = new LocalDirectoryFileStorage(path.join(root, 'partial'));
    await storage.write('ab/file_ab12', new Uint8Array([1, 2, 3]));
    await expect(storage.write('ab/file_cd34', new Uint8Array([1]), { sizeBytes: 2 })).rejects.toThrow();
    expect(await readdir(path.join(root, 'partial', 'ab'))).toEqual(['file_ab12']);
    expect([...(await readAllBytes(storage, 'ab/file_ab12'))]).toEqual([1, 2, 3]);
  });
});

describe('DatabaseFileStorage', () => {
  it('refuses to hand out bytes that changed in the database since they were written', async () => {
    const storage = databaseStorage as DatabaseFileStorage;
    await storage.write('db/tampered', Buffer.from('the original words'));
    await database().query(`UPDATE wildo_file_chunks SET bytes = $2 WHERE storage_key = $1`, [
      'db/tampered',
      Buffer.from('the altered words!'),
    ]);
    await expect(readAllBytes(storage, 'db/tampered')).rejects.toThrow('not those expected');
  });
});
