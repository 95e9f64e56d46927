import {
  checkDeadline,
  checkTextLength,
  describeText,
  ExtractionError,
  limitExceeded,
  type ExtractedText,
  type ExtractionLimits,
} from './extraction.types.js';

type PdfDocument = Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>;

/**
 * Reads a PDF's text layer with unpdf (pdf.js), page by page: the page count is checked before any page is
 * read and the deadline between pages, so a huge or slow document is refused rather than run to the end.
 * A PDF whose pages carry no text gives an empty string here; the caller decides (it is a scan).
 */
export async function readPdfTextLayer(
  bytes: Uint8Array,
  limits: ExtractionLimits,
  deadline: number,
): Promise<ExtractedText> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: PdfDocument;
  try {
    // pdf.js takes ownership of the buffer it is given, and refuses a Node `Buffer` (what storage reads give):
    // hand it a plain `Uint8Array` copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: true, verbosity: 0 });
  } catch (error) {
    throw new ExtractionError('malformed_document', 'The PDF cannot be read.', { cause: error });
  }
  try {
    if (pdf.numPages > limits.maxPages) {
      throw limitExceeded('pages', `The PDF has ${pdf.numPages} pages; at most ${limits.maxPages} are read.`);
    }
    const pages: string[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      checkDeadline(deadline, 'the PDF');
      const text = await pageText(pdf, number);
      length += text.length;
      checkTextLength(length, limits);
      pages.push(text);
    }
    return describeText(pages.join('\n\n').trim(), {
      mediaType: 'application/pdf',
      reader: 'pdf-text-layer',
      partKind: 'page',
      partCount: pdf.numPages,
    });
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

async function pageText(pdf: PdfDocument, number: number): Promise<string> {
  try {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const parts: string[] = [];
    for (const item of content.items) {
      if (!('str' in item)) continue;
      parts.push(item.str);
      if (item.hasEOL) parts.push('\n');
    }
    return parts
      .join('')
      .replace(/[ \t]+\n/g, '\n')
      .trim();
  } catch (error) {
    throw new ExtractionError('malformed_document', `Page ${number} of the PDF cannot be read.`, { cause: error });
  }
}
