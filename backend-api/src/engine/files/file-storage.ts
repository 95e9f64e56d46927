import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** What a storage holds under a key: the byte count and the hex SHA-256 of the bytes. */
export interface StoredBytes {
  sizeBytes: number;
  sha256: string;
}

/** Bytes handed to {@link FileStorage.write}: all at once, or chunk by chunk as they arrive. */
export type FileBytesSource = Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * Where file bytes live. Keys are engine-made (`<prefix>/<file id>`), never a name a caller chose. Bytes move in
 * chunks both ways, so a storage never holds a whole file in memory.
 */
export interface FileStorage {
  /**
   * Stores the bytes of `source` under `key`, replacing nothing: a reader sees all of them or none. When `expected`
   * names a size or hash that the bytes do not have, nothing is stored and it rejects with {@link FileIntegrityError}.
   */
  write(key: string, source: FileBytesSource, expected?: Partial<StoredBytes>): Promise<StoredBytes>;
  /** The bytes under `key`, chunk by chunk; iterating rejects when there are none or they are not those written. */
  read(key: string): AsyncIterable<Buffer>;
  /** Removes the bytes under `key` (nothing when absent). */
  delete(key: string): Promise<void>;
}

/** The bytes read or written are not those expected (size or SHA-256): nothing was stored, or the read is refused. */
export class FileIntegrityError extends Error {
  constructor(
    readonly key: string,
    readonly expected: Partial<StoredBytes>,
    readonly actual: StoredBytes,
  ) {
    super(
      `The bytes under ${JSON.stringify(key)} are ${actual.sizeBytes} bytes with SHA-256 ${actual.sha256}, not those expected (${JSON.stringify(expected)}).`,
    );
    this.name = 'FileIntegrityError';
  }
}

/** How many bytes a storage moves at once (reads yield chunks of at most this size). */
export const FILE_STORAGE_CHUNK_BYTES = 256 * 1024;

/** Counts and hashes bytes as they pass, and checks the result against what was expected. */
export class ByteTally {
  private readonly hash: Hash = createHash('sha256');
  private size = 0;

  add(chunk: Uint8Array): void {
    this.hash.update(chunk);
    this.size += chunk.byteLength;
  }

  /** The size and hash so far (call once, at the end). */
  finish(): StoredBytes {
    return { sizeBytes: this.size, sha256: this.hash.digest('hex') };
  }

  /** Finishes and throws {@link FileIntegrityError} when the bytes are not those `expected`. */
  check(key: string, expected: Partial<StoredBytes> | undefined): StoredBytes {
    const actual = this.finish();
    if (
      expected &&
      ((expected.sizeBytes !== undefined && expected.sizeBytes !== actual.sizeBytes) ||
        (expected.sha256 !== undefined && expected.sha256 !== actual.sha256))
    )
      throw new FileIntegrityError(key, expected, actual);
    return actual;
  }
}

/** Yields `source` in chunks of exactly `size` bytes (the last one shorter), copying only what a chunk needs. */
export async function* rechunk(source: FileBytesSource, size = FILE_STORAGE_CHUNK_BYTES): AsyncGenerator<Buffer> {
  const pieces = source instanceof Uint8Array ? [source] : source;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of pieces) {
    let rest = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (pendingBytes + rest.byteLength >= size) {
      const take = size - pendingBytes;
      pending.push(rest.subarray(0, take));
      yield Buffer.concat(pending, size);
      rest = rest.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (rest.byteLength > 0) {
      // Copied: the caller may reuse its buffer once the iteration moves on.
      pending.push(Buffer.from(rest));
      pendingBytes += rest.byteLength;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/** Reads every byte under `key` into one buffer: for consumers that need the whole file (document extraction). */
export async function readAllBytes(storage: FileStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(key)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const KEY = /^[A-Za-z0-9_-]{1,100}(\/[A-Za-z0-9_-]{1,100}){0,3}$/;

/** Refuses a key that could leave the storage root (`..`, absolute paths, odd characters). */
export function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid file storage key: ${JSON.stringify(key)}`);
  return key;
}

/**
 * {@link FileStorage} in a local directory (the embedded default: `<data directory>/files`, under `.wildo-saas/`).
 * Writes stream to a temporary name and are renamed into place once size and hash are checked, so a crash or a
 * refused write never leaves a half-written file under its key. One replica's disk: replicas share files through
 * {@link DatabaseFileStorage} instead.
 *
 * @example
 * const storage = new LocalDirectoryFileStorage('.wildo-saas/data/files');
 * await storage.write('ab/file_ab12', bytes, { sizeBytes: bytes.byteLength });
 */
export class LocalDirectoryFileStorage implements FileStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async write(key: string, source: FileBytesSource, expected?: Partial<StoredBytes>): Promise<StoredBytes> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
    const handle = await open(temporary, 'wx');
    const tally = new ByteTally();
    try {
      for await (const chunk of rechunk(source)) {
        tally.add(chunk);
        await handle.write(chunk);
      }
      await handle.sync();
      await handle.close();
      const stored = tally.check(key, expected);
      await this.refuseExisting(target, key);
      await rename(temporary, target);
      return stored;
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async *read(key: string): AsyncIterable<Buffer> {
    const stream = createReadStream(this.pathOf(key), { highWaterMark: FILE_STORAGE_CHUNK_BYTES });
    for await (const chunk of stream) yield chunk as Buffer;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** Keys are never reused; a second write under one is a bug, refused rather than replacing the first's bytes. */
  private async refuseExisting(target: string, key: string): Promise<void> {
    const existing = await open(target, 'r').catch(() => undefined);
    if (existing) {
      await existing.close();
      throw new Error(`The file storage already holds bytes under ${JSON.stringify(key)}.`);
    }
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...checkedKey(key).split('/'));
  }
}
