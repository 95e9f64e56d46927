import { strToU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { extractDocumentText } from './document-text.js';
import { ExtractionWorker } from './extraction-worker.js';
import { denseOnePagePdf, minimalPdf, refusalOf } from './extraction.fixtures.js';
import { EXTRACTION_MEDIA_TYPES as M } from './extraction.types.js';

// One worker for the file, with a small heap so a document that outgrows it is cheap to make.
const worker = new ExtractionWorker({ memoryLimitMb: 64, idleMs: 60_000 });
afterAll(() => worker.close());

const read = (bytes: Uint8Array, mediaType: string, limits = {}) =>
  extractDocumentText({ bytes, mediaType }, { reader: worker.read, limits });

describe('the extraction worker', () => {
  it('reads a document from a Node Buffer, as storage hands it over', async () => {
    const extracted = await read(Buffer.from(minimalPdf(['Reimbursed within a month'])), M.PDF);
    expect(extracted).toMatchObject({ reader: 'pdf-text-layer', text: 'Reimbursed within a month' });
  });

  it('refuses a document whose reading outgrows its heap, and the next one gets a fresh worker', async () => {
    // 24 MiB of two-letter words: reading it builds millions of strings, far past a 64 MiB heap.
    const words = strToU8('ab '.repeat(8 * 1024 * 1024));
    const error = await refusalOf(
      read(words, M.PLAIN_TEXT, { maxInputBytes: 32 * 1024 * 1024, maxTextCharacters: 32 * 1024 * 1024 }),
    );
    expect({ reason: error.reason, limit: error.limit, retryable: error.retryable }).toEqual({
      reason: 'limit_exceeded',
      limit: 'memory',
      retryable: false,
    });
    expect(error.message).toBe('Reading the document needs more than 64 MiB.');
    expect((await read(strToU8('Still reading'), M.PLAIN_TEXT)).text).toBe('Still reading');
  });

  it('stops a page that outlives the deadline while it is being read, not after it', async () => {
    const dense = denseOnePagePdf(30_000);
    // Loaded once beforehand, so the deadline below falls inside the page, not in loading the PDF reader.
    await read(minimalPdf(['warm']), M.PDF);
    const error = await refusalOf(read(dense, M.PDF, { timeoutMs: 10 }));
    expect({ reason: error.reason, limit: error.limit }).toEqual({ reason: 'limit_exceeded', limit: 'time' });
    // Control: the same page with the default time reads in full.
    const extracted = await read(dense, M.PDF);
    expect(extracted.partCount).toBe(1);
    expect(extracted.text).toContain('w29999');
  });
});
