import { unzipSync, type UnzipFileInfo } from 'fflate';
import { ExtractionError, type ExtractionLimits } from './extraction.types.js';

/** One entry of a package as its central directory declares it. */
export interface ZipEntryInfo {
  name: string;
  compressedBytes: number;
  declaredBytes: number;
}

/**
 * Lists a ZIP package's entries without inflating any, and refuses it when the declared sizes or the entry
 * count exceed the bounds (a zip bomb is refused here, before a reader runs). Unreadable bytes: malformed.
 */
export function inspectZip(bytes: Uint8Array, limits: ExtractionLimits): ZipEntryInfo[] {
  const entries: ZipEntryInfo[] = [];
  try {
    unzipSync(bytes, {
      filter: (file: UnzipFileInfo) => {
        entries.push({ name: file.name, compressedBytes: file.size, declaredBytes: file.originalSize });
        return false;
      },
    });
  } catch (error) {
    throw new ExtractionError('malformed_document', 'The document is not a readable ZIP package.', { cause: error });
  }
  if (entries.length === 0) throw new ExtractionError('malformed_document', 'The ZIP package has no entries.');
  if (entries.length > limits.maxZipEntries) {
    throw new ExtractionError(
      'limit_exceeded',
      `The package has ${entries.length} entries; at most ${limits.maxZipEntries} are read.`,
    );
  }
  const declared = entries.reduce((sum, entry) => sum + entry.declaredBytes, 0);
  if (declared > limits.maxDecompressedBytes) {
    throw new ExtractionError(
      'limit_exceeded',
      `The package inflates to ${declared} bytes; at most ${limits.maxDecompressedBytes} are read.`,
    );
  }
  return entries;
}

/**
 * Inflates the entries `select` keeps, after {@link inspectZip} bounded the package. fflate inflates each entry
 * into a buffer of its declared size, so an entry that lies about its size cannot grow past the bound.
 */
export function readZipEntries(
  bytes: Uint8Array,
  limits: ExtractionLimits,
  select: (name: string) => boolean,
): Map<string, Uint8Array> {
  inspectZip(bytes, limits);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (file) => select(file.name) });
  } catch (error) {
    throw new ExtractionError('malformed_document', 'An entry of the ZIP package cannot be inflated.', {
      cause: error,
    });
  }
  return new Map(Object.entries(files));
}
