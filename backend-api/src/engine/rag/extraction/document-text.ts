import { readDocx } from './docx.reader.js';
import {
  DEFAULT_EXTRACTION_LIMITS,
  describeText,
  EXTRACTION_MEDIA_TYPES as M,
  ExtractionError,
  limitExceeded,
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

/**
 * Reads a document with the local readers only: its text, or why they cannot (a scan without a text layer, a media
 * type no local reader handles). {@link readDocumentLocally} in this thread, or the extraction worker.
 */
export type LocalDocumentReader = (input: DocumentInput, limits: ExtractionLimits) => Promise<LocalReading>;

/** What the local readers made of a document: its text, or why they could not read it (for recognition to try). */
export type LocalReading = ExtractedText | { unread: 'no_text_layer' | 'unsupported_media_type' };

/** Options of {@link extractDocumentText}. */
export interface DocumentTextOptions {
  limits?: Partial<ExtractionLimits>;
  /** Only the field's explicit `textExtraction: { ocr: true }` allows a provider to read the document. */
  allowProviderExtraction?: boolean;
  provider?: TextRecognitionProvider;
  /** Where the local readers run: this thread by default; the backend runs them in a worker with a memory cap. */
  reader?: LocalDocumentReader;
}

const PLAIN_TEXT_TYPES: ReadonlySet<string> = new Set([M.PLAIN_TEXT, M.MARKDOWN, M.CSV]);

/** `Text/Plain; charset=utf-8` → `text/plain`. */
export function normalizeMediaType(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Extracts a document's text, bounded in size, pages, inflated bytes and time. Plain text is read directly,
 * a PDF through its text layer, `.docx` with mammoth, `.xlsx .pptx .odt .ods .odp` through the ZIP/XML reader,
 * every package through the bounded inflater. A scan (a PDF without a text layer) is read by a provider only when
 * allowed and available; when nothing can read it, extraction fails (never an empty document). Throws
 * {@link ExtractionError}.
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
  const document = { bytes: input.bytes, mediaType: normalizeMediaType(input.mediaType) };
  if (document.bytes.byteLength > limits.maxInputBytes) {
    throw limitExceeded(
      'input_bytes',
      `The file has ${document.bytes.byteLength} bytes; at most ${limits.maxInputBytes} are read.`,
    );
  }
  const reading = await (options.reader ?? readDocumentLocally)(document, limits);
  if (!('unread' in reading)) return reading;
  return recognize(document, options, limits, reading.unread);
}

/**
 * The local readers, in this thread, on a document whose media type is normalized: its text, or why no local reader
 * could read it. The deadline is checked between pages and parts (the worker also enforces it inside one).
 */
export async function readDocumentLocally(input: DocumentInput, limits: ExtractionLimits): Promise<LocalReading> {
  const { bytes, mediaType } = input;
  const deadline = Date.now() + limits.timeoutMs;
  if (PLAIN_TEXT_TYPES.has(mediaType)) return readPlainText(bytes, mediaType, limits);
  if (mediaType === M.PDF) {
    const local = await readPdfTextLayer(bytes, limits, deadline);
    return local.text === '' ? { unread: 'no_text_layer' } : local;
  }
  if (mediaType === M.DOCX) return readDocx(bytes, limits, deadline);
  if (isOfficeXmlMediaType(mediaType)) return readOfficeXml(bytes, mediaType, limits, deadline);
  return { unread: 'unsupported_media_type' };
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
