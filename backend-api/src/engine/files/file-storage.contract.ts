import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FILE_STORAGE_CHUNK_BYTES, FileIntegrityError, readAllBytes, type FileStorage } from './file-storage.js';

/** Opens a storage for a suite; `close` removes what it made. */
export type OpenFileStorage = () => { storage: () => FileStorage };

let keyCounter = 0;
const freshKey = () => `ct/${randomBytes(4).toString('hex')}_${(keyCounter += 1)}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** `bytes` in pieces of uneven sizes, handed over one at a time as a network body would. */
async function* arriving(bytes: Buffer, piece = 70_001): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += piece) {
    await Promise.resolve();
    yield bytes.subarray(offset, offset + piece);
  }
}

/**
 * What every {@link FileStorage} promises, run against each one (local directory, database): streamed writes and
 * reads in bounded chunks, size and hash checked, all or nothing, never replacing, hostile keys refused.
 */
export function describeFileStorageContract(name: string, storage: () => FileStorage): void {
  describe(`${name}: the file storage contract`, () => {
    it('streams a multi-chunk file in and out in bounded chunks, reporting its size and hash', async () => {
      const bytes = randomBytes(FILE_STORAGE_CHUNK_BYTES * 2 + 12_345);
      const key = freshKey();
      const stored = await storage().write(key, arriving(bytes));
      expect(stored).toEqual({ sizeBytes: bytes.byteLength, sha256: sha256(bytes) });
      const chunks: Buffer[] = [];
      for await (const chunk of storage().read(key)) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...chunks.map((chunk) => chunk.byteLength))).toBeLessThanOrEqual(FILE_STORAGE_CHUNK_BYTES);
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    });

    it('round-trips an empty file and a file given whole', async () => {
      const empty = freshKey();
      expect(await storage().write(empty, new Uint8Array(0))).toEqual({
        sizeBytes: 0,
        sha256: sha256(Buffer.alloc(0)),
      });
      expect((await readAllBytes(storage(), empty)).byteLength).toBe(0);
      const whole = freshKey();
      await storage().write(whole, Buffer.from('hello'), { sizeBytes: 5, sha256: sha256(Buffer.from('hello')) });
      expect((await readAllBytes(storage(), whole)).toString()).toBe('hello');
    });

    it('refuses bytes of another size or hash than expected and stores nothing (the key stays usable)', async () => {
      const bytes = randomBytes(FILE_STORAGE_CHUNK_BYTES + 10);
      const key = freshKey();
      await expect(storage().write(key, arriving(bytes), { sizeBytes: bytes.byteLength - 1 })).rejects.toBeInstanceOf(
        FileIntegrityError,
      );
      await expect(readAllBytes(storage(), key)).rejects.toThrow();
      await expect(
        storage().write(key, arriving(bytes), { sha256: sha256(Buffer.from('other')) }),
      ).rejects.toBeInstanceOf(FileIntegrityError);
      await expect(readAllBytes(storage(), key)).rejects.toThrow();
      // Positive control: the right size and hash store it.
      await storage().write(key, arriving(bytes), { sizeBytes: bytes.byteLength, sha256: sha256(bytes) });
      expect((await readAllBytes(storage(), key)).equals(bytes)).toBe(true);
    });

    it('stores nothing when the source fails half way', async () => {
      const key = freshKey();
      async function* failing(): AsyncGenerator<Uint8Array> {
        yield randomBytes(FILE_STORAGE_CHUNK_BYTES + 1);
        throw new Error('connection reset');
      }
      await expect(storage().write(key, failing())).rejects.toThrow('connection reset');
      await expect(readAllBytes(storage(), key)).rejects.toThrow();
    });

    it('never replaces the bytes under a key', async () => {
      const key = freshKey();
      await storage().write(key, Buffer.from('first'));
      await expect(storage().write(key, Buffer.from('second'))).rejects.toThrow('already holds bytes');
      expect((await readAllBytes(storage(), key)).toString()).toBe('first');
    });

    it('deletes bytes, and reading an absent key rejects', async () => {
      const key = freshKey();
      await expect(readAllBytes(storage(), key)).rejects.toThrow();
      await storage().delete(key);
      await storage().write(key, Buffer.from('gone soon'));
      await storage().delete(key);
      await expect(readAllBytes(storage(), key)).rejects.toThrow();
    });

    it('refuses keys that could leave its space, writing nothing', async () => {
      for (const key of ['../escape', '/etc/passwd', 'a/../../b', 'a\\b', '', 'a//b', "x'; DROP TABLE x; --"]) {
        await expect(storage().write(key, Buffer.from([0])), key).rejects.toThrow('Invalid file storage key');
        await expect(readAllBytes(storage(), key), key).rejects.toThrow('Invalid file storage key');
      }
    });
  });
}
