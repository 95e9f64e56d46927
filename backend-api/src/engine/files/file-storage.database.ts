import type { SqlDatabase } from '../persistence/index.js';
import {
  ByteTally,
  checkedKey,
  FileIntegrityError,
  rechunk,
  type FileBytesSource,
  type FileStorage,
  type StoredBytes,
} from './file-storage.js';

interface BlobRow {
  size_bytes: string;
  sha256: string;
  chunk_count: number;
}

/** bytea comes back as a Buffer from pg and as a Uint8Array from PGlite. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * {@link FileStorage} in the application's database (`wildo_file_blobs`, `wildo_file_chunks`): every replica on the
 * same PostgreSQL reads what another wrote. Bytes go in as 256 KiB chunks inside one transaction (a reader sees all
 * of them or none) and come out one chunk per statement, checked against the size and SHA-256 recorded at write.
 * Selected with `WILDO_FILE_STORAGE=database`.
 *
 * @example
 * const storage = new DatabaseFileStorage(database);
 * await storage.write('ab/file_ab12', upload.stream(), { sizeBytes, sha256 });
 * for await (const chunk of storage.read('ab/file_ab12')) response.write(chunk);
 */
export class DatabaseFileStorage implements FileStorage {
  constructor(private readonly database: SqlDatabase) {}

  async write(key: string, source: FileBytesSource, expected?: Partial<StoredBytes>): Promise<StoredBytes> {
    checkedKey(key);
    return await this.database.transaction(async (tx) => {
      // The header first: a second write under the key waits on this row, then finds it and is refused.
      const claimed = await tx.query(
        `INSERT INTO wildo_file_blobs (storage_key, size_bytes, sha256, chunk_count, created_at)
         VALUES ($1, 0, '', 0, now()) ON CONFLICT (storage_key) DO NOTHING`,
        [key],
      );
      if (claimed.affectedRows !== 1)
        throw new Error(`The file storage already holds bytes under ${JSON.stringify(key)}.`);
      const tally = new ByteTally();
      let chunks = 0;
      for await (const chunk of rechunk(source)) {
        tally.add(chunk);
        await tx.query(
          'INSERT INTO wildo_file_chunks (storage_key, seq, bytes) VALUES ($1, $2, $3)',
          [key, chunks, chunk],
          {
            prepare: true,
          },
        );
        chunks += 1;
      }
      const stored = tally.check(key, expected);
      await tx.query(
        'UPDATE wildo_file_blobs SET size_bytes = $2, sha256 = $3, chunk_count = $4 WHERE storage_key = $1',
        [key, stored.sizeBytes, stored.sha256, chunks],
      );
      return stored;
    });
  }

  async *read(key: string): AsyncIterable<Buffer> {
    checkedKey(key);
    const { rows } = await this.database.query<BlobRow>(
      'SELECT size_bytes, sha256, chunk_count FROM wildo_file_blobs WHERE storage_key = $1',
      [key],
      { prepare: true },
    );
    const blob = rows[0];
    if (!blob) throw new Error(`The file storage holds no bytes under ${JSON.stringify(key)}.`);
    const tally = new ByteTally();
    const expected = { sizeBytes: Number(blob.size_bytes), sha256: blob.sha256 };
    for (let seq = 0; seq < blob.chunk_count; seq += 1) {
      const chunk = await this.database.query<{ bytes: Uint8Array }>(
        'SELECT bytes FROM wildo_file_chunks WHERE storage_key = $1 AND seq = $2',
        [key, seq],
        { prepare: true },
      );
      const bytes = chunk.rows[0]?.bytes;
      if (!bytes) throw new FileIntegrityError(key, expected, tally.finish());
      const buffer = asBuffer(bytes);
      tally.add(buffer);
      // Held back until the last chunk is checked: a consumer never acts on the end of a corrupted file.
      if (seq === blob.chunk_count - 1) tally.check(key, expected);
      yield buffer;
    }
    if (blob.chunk_count === 0) tally.check(key, expected);
  }

  async delete(key: string): Promise<void> {
    checkedKey(key);
    await this.database.query('DELETE FROM wildo_file_blobs WHERE storage_key = $1', [key]);
  }
}
