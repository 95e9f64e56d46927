import { Unzip, UnzipInflate, unzipSync, type UnzipFile, type UnzipFileInfo } from 'fflate';
import { ExtractionError, limitExceeded, RATIO_CHECK_FLOOR_BYTES, type ExtractionLimits } from './extraction.types.js';

/** What {@link inflateArchive} keeps of a package: entries by name (a nested package's as `outer/inner`). */
export type InflatedEntries = Map<string, Uint8Array>;

/** Which entries to inflate, and which to open as packages in their turn. */
export interface InflateSelection {
  /** Entries whose bytes the reader wants; the others are counted, never inflated. */
  select(name: string): boolean;
  /** Entries that are packages to open in their turn (counted against `maxArchiveDepth`); none by default. */
  nested?(name: string): boolean;
}

/** Bytes inflated so far, shared by a package and the packages nested in it. */
interface InflateBudget {
  inflated: number;
  entries: number;
}

/**
 * Compressed bytes handed to the inflater at a time: DEFLATE inflates at most about 1 032 bytes per input byte, so one
 * step can never produce more than about 1 MiB before the counters see it.
 */
const STEP_BYTES = 1024;

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

/**
 * Inflates the selected entries of a ZIP package, checking as the bytes come out rather than trusting the headers:
 * it stops at the total it may inflate (`maxDecompressedBytes`), at an entry inflating past the size it declares, at an
 * entry whose ratio of inflated to compressed bytes passes `maxCompressionRatio`, at `maxZipEntries` entries and at
 * `maxArchiveDepth` nested packages, and refuses with an {@link ExtractionError} naming the bound. Every reader of a
 * package format goes through it. Declared sizes are read first (a package that admits to being too large is refused
 * before anything inflates); the central directory and the local headers may lie, the inflated bytes cannot.
 *
 * @example
 * const parts = inflateArchive(bytes, limits, { select: (name) => name === 'content.xml' });
 */
export function inflateArchive(
  bytes: Uint8Array,
  limits: ExtractionLimits,
  selection: InflateSelection,
): InflatedEntries {
  return inflate(bytes, limits, selection, { inflated: 0, entries: 0 }, 1, '');
}

function inflate(
  bytes: Uint8Array,
  limits: ExtractionLimits,
  selection: InflateSelection,
  budget: InflateBudget,
  depth: number,
  prefix: string,
): InflatedEntries {
  if (depth > limits.maxArchiveDepth) {
    throw limitExceeded('depth', `The package nests packages deeper than ${limits.maxArchiveDepth}.`);
  }
  checkDeclared(listEntries(bytes), limits, budget);
  const entries: InflatedEntries = new Map();
  const nested: [string, Uint8Array][] = [];
  const state: { refusal?: ExtractionError } = {};
  const unzip = new Unzip((file) => {
    if (state.refusal) return;
    const open = selection.nested?.(file.name) === true;
    if (!open && !selection.select(file.name)) return;
    inflateEntry(file, bytes.byteLength, limits, budget, state, (data) => {
      if (open) nested.push([file.name, data]);
      else entries.set(`${prefix}${file.name}`, data);
    });
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < bytes.byteLength && !state.refusal; offset += STEP_BYTES) {
      const end = Math.min(offset + STEP_BYTES, bytes.byteLength);
      unzip.push(bytes.subarray(offset, end), end === bytes.byteLength);
    }
  } catch (error) {
    state.refusal ??= malformed('The ZIP package cannot be read to its end.', error);
  }
  if (state.refusal) throw state.refusal;
  for (const [name, data] of nested) {
    for (const [inner, content] of inflate(data, limits, selection, budget, depth + 1, `${prefix}${name}/`))
      entries.set(inner, content);
  }
  return entries;
}

/** Inflates one entry through its counters; `done` receives the bytes once the entry ended within every bound. */
function inflateEntry(
  file: UnzipFile,
  packageBytes: number,
  limits: ExtractionLimits,
  budget: InflateBudget,
  state: { refusal?: ExtractionError },
  done: (data: Uint8Array) => void,
): void {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const compressed = Math.max(1, file.size ?? packageBytes);
  file.ondata = (error, data, final) => {
    if (state.refusal) return;
    if (error) {
      state.refusal = malformed(`The entry ${file.name} cannot be inflated.`, error);
      return;
    }
    size += data.byteLength;
    budget.inflated += data.byteLength;
    state.refusal = entryRefusal(file, size, compressed, budget, limits);
    if (state.refusal) {
      chunks.length = 0;
      file.terminate();
      return;
    }
    chunks.push(data);
    if (final) done(concat(chunks, size));
  };
  file.start();
}

function entryRefusal(
  file: UnzipFile,
  size: number,
  compressed: number,
  budget: InflateBudget,
  limits: ExtractionLimits,
): ExtractionError | undefined {
  if (file.originalSize !== undefined && size > file.originalSize)
    return limitExceeded(
      'declared_size',
      `The entry ${file.name} declares ${kib(file.originalSize)} but inflates to more; it is not read.`,
    );
  if (budget.inflated > limits.maxDecompressedBytes)
    return limitExceeded(
      'inflated_bytes',
      `The package inflates to more than ${limits.maxDecompressedBytes} bytes; at most that many are read.`,
    );
  if (size > RATIO_CHECK_FLOOR_BYTES && size / compressed > limits.maxCompressionRatio)
    return limitExceeded(
      'compression_ratio',
      `The entry ${file.name} inflates more than ${limits.maxCompressionRatio} times its compressed size.`,
    );
  return undefined;
}

/** The entries a package's central directory declares (nothing is inflated). Unreadable bytes: malformed. */
function listEntries(bytes: Uint8Array): UnzipFileInfo[] {
  const entries: UnzipFileInfo[] = [];
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries.push(file);
        return false;
      },
    });
  } catch (error) {
    throw malformed('The document is not a readable ZIP package.', error);
  }
  if (entries.length === 0) throw new ExtractionError('malformed_document', 'The ZIP package has no entries.');
  return entries;
}

/** Refuses a package that admits, in its central directory, to more entries or bytes than allowed. */
function checkDeclared(entries: readonly UnzipFileInfo[], limits: ExtractionLimits, budget: InflateBudget): void {
  budget.entries += entries.length;
  if (budget.entries > limits.maxZipEntries) {
    throw limitExceeded('entries', `The package has more than ${limits.maxZipEntries} entries; no more are read.`);
  }
  const declared = entries.reduce((sum, entry) => sum + entry.originalSize, 0);
  if (budget.inflated + declared > limits.maxDecompressedBytes) {
    throw limitExceeded(
      'inflated_bytes',
      `The package declares ${declared} inflated bytes; at most ${limits.maxDecompressedBytes} are read.`,
    );
  }
}

function malformed(message: string, cause: unknown): ExtractionError {
  return new ExtractionError('malformed_document', message, { cause });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
