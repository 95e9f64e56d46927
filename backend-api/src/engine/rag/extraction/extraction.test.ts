import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../logging/index.js';
import { extractDocumentText, type TextRecognitionProvider } from './document-text.js';
import {
  minimalDocx,
  minimalOdp,
  minimalOds,
  minimalOdt,
  minimalPdf,
  minimalPptx,
  minimalXlsx,
  refusalOf,
  zipBomb,
} from './extraction.fixtures.js';
import { EXTRACTION_MEDIA_TYPES as M, type ExtractionFailureReason } from './extraction.types.js';
import { FileTextExtractionService } from './file-text-extraction.service.js';

async function expectFailure(promise: Promise<unknown>, reason: ExtractionFailureReason, retryable = false) {
  const error = await refusalOf(promise);
  expect({ reason: error.reason, retryable: error.retryable }).toEqual({ reason, retryable });
}

describe('extractDocumentText', () => {
  it('reads plain text directly, with character and word counts', async () => {
    const extracted = await extractDocumentText({
      bytes: strToU8('Travel policy: book early.'),
      mediaType: 'text/plain; charset=utf-8',
    });
    expect(extracted).toMatchObject({
      text: 'Travel policy: book early.',
      reader: 'plain-text',
      characterCount: 26,
      wordCount: 4,
    });
    await expectFailure(
      extractDocumentText({ bytes: new Uint8Array([0xff, 0xfe, 0xfd]), mediaType: 'text/plain' }),
      'malformed_document',
    );
  });

  it('reads the text layer of a PDF, one part per page', async () => {
    const extracted = await extractDocumentText({
      bytes: minimalPdf(['Expense reports are due monthly', 'Receipts over 50 EUR']),
      mediaType: M.PDF,
    });
    expect(extracted).toMatchObject({ reader: 'pdf-text-layer', partKind: 'page', partCount: 2, wordCount: 9 });
    expect(extracted.text).toBe('Expense reports are due monthly\n\nReceipts over 50 EUR');
  });

  it('fails a PDF without a text layer instead of reporting an empty document, unless recognition may read it', async () => {
    const scan = minimalPdf([]);
    await expectFailure(extractDocumentText({ bytes: scan, mediaType: M.PDF }), 'no_text_layer');
    const reader: TextRecognitionProvider = {
      ref: 'local-ocr',
      supports: (type) => type === M.PDF,
      recognize: async () => ({ text: 'Recognized scan text', partCount: 1 }),
    };
    // A provider the field does not allow is not asked.
    await expectFailure(extractDocumentText({ bytes: scan, mediaType: M.PDF }, { provider: reader }), 'no_text_layer');
    const recognized = await extractDocumentText(
      { bytes: scan, mediaType: M.PDF },
      { provider: reader, allowProviderExtraction: true },
    );
    expect(recognized).toMatchObject({ reader: 'provider', text: 'Recognized scan text' });
    // A provider outage with no text layer to fall back on is retryable, not an empty document.
    const broken: TextRecognitionProvider = { ...reader, recognize: () => Promise.reject(new Error('503')) };
    await expectFailure(
      extractDocumentText({ bytes: scan, mediaType: M.PDF }, { provider: broken, allowProviderExtraction: true }),
      'provider_unavailable',
      true,
    );
    // ...while a usable text layer still answers during that outage.
    const text = await extractDocumentText(
      { bytes: minimalPdf(['Layer']), mediaType: M.PDF },
      { provider: broken, allowProviderExtraction: true },
    );
    expect(text.text).toBe('Layer');
  });

  it('refuses a malformed PDF and one with more pages than allowed', async () => {
    await expectFailure(
      extractDocumentText({ bytes: strToU8('%PDF-1.4 not really'), mediaType: M.PDF }),
      'malformed_document',
    );
    const pages = minimalPdf(['one', 'two', 'three']);
    await expectFailure(
      extractDocumentText({ bytes: pages, mediaType: M.PDF }, { limits: { maxPages: 2 } }),
      'limit_exceeded',
    );
    // The time bound is checked between pages and parts: a deadline already past refuses before any is read.
    const late = { limits: { timeoutMs: -1 } };
    await expectFailure(extractDocumentText({ bytes: pages, mediaType: M.PDF }, late), 'limit_exceeded');
    await expectFailure(
      extractDocumentText({ bytes: minimalPptx(['a', 'b']), mediaType: M.PPTX }, late),
      'limit_exceeded',
    );
    // Text past the character bound is refused, not cut silently.
    const short = { limits: { maxTextCharacters: 5 } };
    await expectFailure(extractDocumentText({ bytes: pages, mediaType: M.PDF }, short), 'limit_exceeded');
    // Control: the same document within the bounds.
    expect((await extractDocumentText({ bytes: pages, mediaType: M.PDF })).partCount).toBe(3);
  });

  it('reads a .docx', async () => {
    const extracted = await extractDocumentText({
      bytes: minimalDocx(['Remote work policy', 'Two days a week.']),
      mediaType: M.DOCX,
    });
    expect(extracted).toMatchObject({ reader: 'docx', partCount: 1 });
    expect(extracted.text).toBe('Remote work policy\n\nTwo days a week.');
  });

  it('reads a .pptx with one part per slide and a .xlsx with one per sheet', async () => {
    const slides = await extractDocumentText({
      bytes: minimalPptx(['Intro', 'Budget 2027', 'Q&A']),
      mediaType: M.PPTX,
    });
    expect(slides).toMatchObject({
      reader: 'office-xml',
      partKind: 'slide',
      partCount: 3,
      text: 'Intro\n\nBudget 2027\n\nQ&A',
    });
    const sheets = await extractDocumentText({
      bytes: minimalXlsx([['Region', 'North'], ['Total']]),
      mediaType: M.XLSX,
    });
    expect(sheets).toMatchObject({ partKind: 'sheet', partCount: 2, text: 'Region\tNorth\n\nTotal' });
  });

  it('reads an .odt', async () => {
    const extracted = await extractDocumentText({
      bytes: minimalOdt(['Onboarding', 'Badge on day one']),
      mediaType: M.ODT,
    });
    expect(extracted).toMatchObject({ partKind: 'document', partCount: 1, text: 'Onboarding\nBadge on day one' });
  });

  it('reads an .ods with one part per sheet and an .odp with one per slide', async () => {
    const sheets = await extractDocumentText({ bytes: minimalOds([['Budget', '1200'], ['Notes']]), mediaType: M.ODS });
    expect(sheets).toMatchObject({ partKind: 'sheet', partCount: 2, text: 'Budget\t1200\n\nNotes' });
    const slides = await extractDocumentText({ bytes: minimalOdp(['Welcome', 'Roadmap']), mediaType: M.ODP });
    expect(slides).toMatchObject({ partKind: 'slide', partCount: 2, text: 'Welcome\n\nRoadmap' });
  });

  it('refuses a corrupt zip as malformed, and a zip bomb before inflating it', async () => {
    const corrupt = minimalPptx(['x']).slice(0, 60);
    await expectFailure(extractDocumentText({ bytes: corrupt, mediaType: M.PPTX }), 'malformed_document');
    await expectFailure(extractDocumentText({ bytes: corrupt, mediaType: M.DOCX }), 'malformed_document');
    // 16 MiB of zeros compress to about 16 KiB; with a 4 MiB bound (the default is 64 MiB) nothing is inflated.
    const limits = { maxDecompressedBytes: 4 * 1024 * 1024 };
    const bomb = zipBomb('word/document.xml', 16 * 1024 * 1024);
    expect(bomb.byteLength).toBeLessThan(100_000);
    await expectFailure(extractDocumentText({ bytes: bomb, mediaType: M.DOCX }, { limits }), 'limit_exceeded');
    const odtBomb = zipBomb('content.xml', 16 * 1024 * 1024);
    await expectFailure(extractDocumentText({ bytes: odtBomb, mediaType: M.ODT }, { limits }), 'limit_exceeded');
    // The same bound reads an ordinary document.
    const docx = await extractDocumentText({ bytes: minimalDocx(['Fine']), mediaType: M.DOCX }, { limits });
    expect(docx.text).toBe('Fine');
  });

  it('refuses a file over the size bound and a type no local reader handles', async () => {
    await expectFailure(
      extractDocumentText(
        { bytes: strToU8('x'.repeat(2_000)), mediaType: 'text/plain' },
        { limits: { maxInputBytes: 1_000 } },
      ),
      'limit_exceeded',
    );
    await expectFailure(
      extractDocumentText({ bytes: strToU8('binary'), mediaType: 'application/msword' }),
      'unsupported_media_type',
    );
  });
});

describe('FileTextExtractionService', () => {
  const service = new FileTextExtractionService({ logger: createSilentLogger() });
  const context = { requestId: 'req-1' };

  it('tells a failed download (retryable) from a malformed document', async () => {
    const unreachable = { fileId: 'f1', mediaType: 'text/plain', read: () => Promise.reject(new Error('ECONNRESET')) };
    await expectFailure(
      service.extractText(unreachable, context, { allowProviderExtraction: false }),
      'storage_unavailable',
      true,
    );
    const stored = { fileId: 'f2', mediaType: 'text/plain', read: async () => strToU8('Stored words') };
    expect((await service.extractText(stored, context, { allowProviderExtraction: false })).text).toBe('Stored words');
  });
});
