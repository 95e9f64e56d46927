import {
  checkTextLength,
  describeText,
  ExtractionError,
  EXTRACTION_MEDIA_TYPES,
  type ExtractedText,
  type ExtractionLimits,
} from './extraction.types.js';
import { inspectZip } from './zip-package.js';

/**
 * Reads a `.docx` with mammoth's raw-text conversion. The package is bounded first by the ZIP reader
 * (mammoth inflates with its own unbounded reader), and the conversion is raced against the deadline.
 */
export async function readDocx(bytes: Uint8Array, limits: ExtractionLimits, deadline: number): Promise<ExtractedText> {
  const entries = inspectZip(bytes, limits);
  if (!entries.some((entry) => entry.name === 'word/document.xml')) {
    throw new ExtractionError('malformed_document', 'The .docx package has no word/document.xml.');
  }
  const { default: mammoth } = await import('mammoth');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ExtractionError('limit_exceeded', 'Reading the .docx took longer than allowed.')),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    const result = await Promise.race([mammoth.extractRawText({ buffer: Buffer.from(bytes) }), timeout]);
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
