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
  /** Bytes inflated from a package's entries, counted as they inflate (whatever the entries declare). */
  maxDecompressedBytes: number;
  /** Entries of a ZIP package (nested packages included). */
  maxZipEntries: number;
  /** Inflated bytes per compressed byte of an entry, checked once the entry passes {@link RATIO_CHECK_FLOOR_BYTES}. */
  maxCompressionRatio: number;
  /** Packages inside packages a reader may open (1: the document's own package only). */
  maxArchiveDepth: number;
  /** Characters of extracted text. */
  maxTextCharacters: number;
  /** Wall time of one extraction: checked between pages and parts, and enforced inside a page by the worker's deadline. */
  timeoutMs: number;
}

/** Below this many inflated bytes an entry is never refused for its compression ratio (small XML compresses well). */
export const RATIO_CHECK_FLOOR_BYTES = 1024 * 1024;

/** The defaults: generous for real documents, far below what a zip bomb or a pathological PDF asks for. */
export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  maxInputBytes: 25 * 1024 * 1024,
  maxPages: 1_000,
  maxDecompressedBytes: 64 * 1024 * 1024,
  maxZipEntries: 5_000,
  maxCompressionRatio: 200,
  maxArchiveDepth: 1,
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

/**
 * Which bound a `limit_exceeded` refusal met: the input's size, a PDF's pages, bytes inflated from a package, an
 * entry's compression ratio, an entry inflating past the size it declared, the entry count, package nesting, the
 * text's length, the time allowed, or the extraction worker's memory.
 */
export type ExtractionLimitName =
  | 'input_bytes'
  | 'pages'
  | 'inflated_bytes'
  | 'compression_ratio'
  | 'declared_size'
  | 'entries'
  | 'depth'
  | 'text_characters'
  | 'time'
  | 'memory';

/** A failed extraction: never an empty document, so an existing corpus is kept until a retry succeeds. */
export class ExtractionError extends Error {
  override readonly name = 'ExtractionError';
  /** Whether the same bytes may succeed later (a download or a provider came back). */
  readonly retryable: boolean;
  /** The bound a `limit_exceeded` refusal met. */
  readonly limit: ExtractionLimitName | undefined;

  constructor(
    readonly reason: ExtractionFailureReason,
    message: string,
    options?: { cause?: unknown; limit?: ExtractionLimitName },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = RETRYABLE.has(reason);
    this.limit = options?.limit;
  }
}

/** A `limit_exceeded` refusal naming the bound it met. */
export function limitExceeded(limit: ExtractionLimitName, message: string): ExtractionError {
  return new ExtractionError('limit_exceeded', message, { limit });
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
  if (Date.now() > deadline) throw limitExceeded('time', `Reading ${what} took longer than allowed.`);
}

/** Throws `limit_exceeded` when the text grew past the bound. */
export function checkTextLength(length: number, limits: ExtractionLimits): void {
  if (length > limits.maxTextCharacters) {
    throw limitExceeded('text_characters', `The document's text exceeds ${limits.maxTextCharacters} characters.`);
  }
}
