import { zipSync } from 'fflate';
import { inflateArchive } from './bounded-inflater.js';
import {
  checkTextLength,
  describeText,
  ExtractionError,
  EXTRACTION_MEDIA_TYPES,
  limitExceeded,
  type ExtractedText,
  type ExtractionLimits,
} from './extraction.types.js';

/**
 * Reads a `.docx` with mammoth's raw-text conversion. Mammoth inflates with its own reader, which trusts the
 * package: it is handed only what the bounded inflater produced, repackaged without compression (so nothing is left
 * for it to inflate), and the conversion is raced against the deadline.
 */
export async function readDocx(bytes: Uint8Array, limits: ExtractionLimits, deadline: number): Promise<ExtractedText> {
  const entries = inflateArchive(bytes, limits, { select: () => true });
  if (!entries.has('word/document.xml')) {
    throw new ExtractionError('malformed_document', 'The .docx package has no word/document.xml.');
  }
  const stored = zipSync(Object.fromEntries(entries), { level: 0 });
  entries.clear();
  const { default: mammoth } = await import('mammoth');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(limitExceeded('time', 'Reading the .docx took longer than allowed.')),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    const result = await Promise.race([
      mammoth.extractRawText({ buffer: Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength) }),
      timeout,
    ]);
    const text = result.value.replace(/\n{3,}/g, '\n\n').trim();
    checkTextLength(text.length, limits);
    return describeText(text, {
      mediaType: EXTRACTION_MEDIA_TYPES.DOCX,
      reader: 'docx',
      partKind: 'document',
      partCount: 1,
    });
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError('malformed_document', 'The .docx document cannot be read.', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
