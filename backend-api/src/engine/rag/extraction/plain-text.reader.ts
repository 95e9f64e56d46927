import {
  describeText,
  ExtractionError,
  checkTextLength,
  type ExtractedText,
  type ExtractionLimits,
} from './extraction.types.js';

/** Reads UTF-8 text as is (a byte-order mark dropped); bytes that are not UTF-8 are a malformed document. */
export function readPlainText(bytes: Uint8Array, mediaType: string, limits: ExtractionLimits): ExtractedText {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    throw new ExtractionError('malformed_document', 'The text file is not valid UTF-8.', { cause: error });
  }
  checkTextLength(text.length, limits);
  return describeText(text, { mediaType, reader: 'plain-text', partKind: 'document', partCount: 1 });
}
