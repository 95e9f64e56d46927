/** Media types the local readers handle. */
export const EXTRACTION_MEDIA_TYPES = {
  PLAIN_TEXT: 'text/plain',
  MARKDOWN: 'text/markdown',
  CSV: 'text/csv',
  PDF: 'application/pdf',
  DOCX: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  XLSX: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  PPTX: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ODT: 'application/vnd.oasis.opendocument.text',
  ODS: 'application/vnd.oasis.opendocument.spreadsheet',
  ODP: 'application/vnd.oasis.opendocument.presentation',
} as const;

/** Which reader produced a text. */
export type ExtractionReader = 'plain-text' | 'pdf-text-layer' | 'docx' | 'office-xml' | 'provider';

/** What `partCount` counts: the document's real units, never an invented page count. */
export type ExtractionPartKind = 'document' | 'page' | 'slide' | 'sheet';

/** The text of a document with what was read. */
export interface ExtractedText {
  text: string;
  mediaType: string;
  reader: ExtractionReader;
  partKind: ExtractionPartKind;
  partCount: number;
  characterCount: number;
  wordCount: number;
}

/** Bounds every extraction runs within; a document past one is refused, not read. */
export interface ExtractionLimits {
  /** Bytes of the stored file. */
  maxInputBytes: number;
  /** Pages of a PDF. */
  maxPages: number;
  /** Sum of the inflated sizes of a ZIP package's entries. */
  maxDecompressedBytes: number;
  /** Entries of a ZIP package. */
  maxZipEntries: number;
  /** Characters of extracted text. */
  maxTextCharacters: number;
  /** Wall time of one extraction, checked between pages and parts. */
  timeoutMs: number;
}

/** The defaults: generous for real documents, far below what a zip bomb or a pathological PDF asks for. */
export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  maxInputBytes: 25 * 1024 * 1024,
  maxPages: 1_000,
  maxDecompressedBytes: 64 * 1024 * 1024,
  maxZipEntries: 5_000,
  maxTextCharacters: 5_000_000,
  timeoutMs: 30_000,
};

/**
 * Why extraction failed. Permanent: `malformed_document` (the bytes cannot be read), `limit_exceeded`,
 * `unsupported_media_type`, `no_text_layer` (a scan with no recognition allowed). Retryable:
 * `storage_unavailable` (the download failed) and `provider_unavailable` (recognition failed and no
 * local text layer could stand in).
 */
export type ExtractionFailureReason =
  | 'malformed_document'
  | 'limit_exceeded'
  | 'unsupported_media_type'
  | 'no_text_layer'
  | 'storage_unavailable'
  | 'provider_unavailable';

const RETRYABLE: ReadonlySet<ExtractionFailureReason> = new Set(['storage_unavailable', 'provider_unavailable']);

/** A failed extraction: never an empty document, so an existing corpus is kept until a retry succeeds. */
export class ExtractionError extends Error {
  override readonly name = 'ExtractionError';
  /** Whether the same bytes may succeed later (a download or a provider came back). */
  readonly retryable: boolean;

  constructor(
    readonly reason: ExtractionFailureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.retryable = RETRYABLE.has(reason);
  }
}

/** A document to read: its bytes and declared media type. */
export interface DocumentInput {
  bytes: Uint8Array;
  mediaType: string;
}

/** Counts characters and words of an extracted text. */
export function describeText(
  text: string,
  fields: Omit<ExtractedText, 'text' | 'characterCount' | 'wordCount'>,
): ExtractedText {
  const words = text.match(/\S+/g);
  return { text, ...fields, characterCount: text.length, wordCount: words ? words.length : 0 };
}

/** Throws `limit_exceeded` once `deadline` (epoch ms) has passed. */
export function checkDeadline(deadline: number, what: string): void {
  if (Date.now() > deadline) throw new ExtractionError('limit_exceeded', `Reading ${what} took longer than allowed.`);
}

/** Throws `limit_exceeded` when the text grew past the bound. */
export function checkTextLength(length: number, limits: ExtractionLimits): void {
  if (length > limits.maxTextCharacters) {
    throw new ExtractionError('limit_exceeded', `The document's text exceeds ${limits.maxTextCharacters} characters.`);
  }
}
