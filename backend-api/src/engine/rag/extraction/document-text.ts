import { readDocx } from './docx.reader.js';
import {
  DEFAULT_EXTRACTION_LIMITS,
  describeText,
  EXTRACTION_MEDIA_TYPES as M,
  ExtractionError,
  type DocumentInput,
  type ExtractedText,
  type ExtractionLimits,
} from './extraction.types.js';
import { isOfficeXmlMediaType, readOfficeXml } from './office-xml.reader.js';
import { readPdfTextLayer } from './pdf.reader.js';
import { readPlainText } from './plain-text.reader.js';

/** Provider-backed recognition (OCR, legacy binary Office formats); none ships with the framework yet. */
export interface TextRecognitionProvider {
  readonly ref: string;
  supports(mediaType: string): boolean;
  recognize(input: DocumentInput & { signal: AbortSignal }): Promise<{ text: string; partCount: number }>;
}

/** Options of {@link extractDocumentText}. */
export interface DocumentTextOptions {
  limits?: Partial<ExtractionLimits>;
  /** Only the field's explicit `textExtraction: { ocr: true }` allows a provider to read the document. */
  allowProviderExtraction?: boolean;
  provider?: TextRecognitionProvider;
}

const PLAIN_TEXT_TYPES: ReadonlySet<string> = new Set([M.PLAIN_TEXT, M.MARKDOWN, M.CSV]);

/** `Text/Plain; charset=utf-8` → `text/plain`. */
export function normalizeMediaType(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Extracts a document's text, bounded in size, pages, inflated bytes and time. Plain text is read directly,
 * a PDF through its text layer, `.docx` with mammoth, `.xlsx .pptx .odt .ods .odp` through the ZIP/XML reader.
 * A scan (a PDF without a text layer) is read by a provider only when allowed and available; when nothing
 * can read it, extraction fails (never an empty document). Throws {@link ExtractionError}.
 *
 * @example
 * const extracted = await extractDocumentText({ bytes, mediaType: 'application/pdf' });
 * extracted.partCount; // pages
 */
export async function extractDocumentText(
  input: DocumentInput,
  options: DocumentTextOptions = {},
): Promise<ExtractedText> {
  const limits = { ...DEFAULT_EXTRACTION_LIMITS, ...options.limits };
  const mediaType = normalizeMediaType(input.mediaType);
  if (input.bytes.byteLength > limits.maxInputBytes) {
    throw new ExtractionError(
      'limit_exceeded',
      `The file has ${input.bytes.byteLength} bytes; at most ${limits.maxInputBytes} are read.`,
    );
  }
  const deadline = Date.now() + limits.timeoutMs;
  if (PLAIN_TEXT_TYPES.has(mediaType)) return readPlainText(input.bytes, mediaType, limits);
  if (mediaType === M.PDF) {
    const local = await readPdfTextLayer(input.bytes, limits, deadline);
    if (local.text !== '') return local;
    return recognize({ ...input, mediaType }, options, limits, 'no_text_layer');
  }
  if (mediaType === M.DOCX) return readDocx(input.bytes, limits, deadline);
  if (isOfficeXmlMediaType(mediaType)) return readOfficeXml(input.bytes, mediaType, limits, deadline);
  return recognize({ ...input, mediaType }, options, limits, 'unsupported_media_type');
}

/** Provider recognition, or the failure that says why nothing could read the document. */
async function recognize(
  input: DocumentInput,
  options: DocumentTextOptions,
  limits: ExtractionLimits,
  withoutProvider: 'no_text_layer' | 'unsupported_media_type',
): Promise<ExtractedText> {
  const provider = options.provider;
  if (options.allowProviderExtraction !== true || !provider || !provider.supports(input.mediaType)) {
    throw new ExtractionError(
      withoutProvider,
      withoutProvider === 'no_text_layer'
        ? 'The PDF has no text layer and no text recognition is allowed for this field.'
        : `No local reader handles ${input.mediaType} and no text recognition is allowed for this field.`,
    );
  }
  try {
    const recognized = await provider.recognize({ ...input, signal: AbortSignal.timeout(limits.timeoutMs) });
    return describeText(recognized.text.trim(), {
      mediaType: input.mediaType,
      reader: 'provider',
      partKind: input.mediaType === M.PDF ? 'page' : 'document',
      partCount: recognized.partCount,
    });
  } catch (error) {
    throw new ExtractionError('provider_unavailable', `Text recognition by "${provider.ref}" failed; retry later.`, {
      cause: error,
    });
  }
}
