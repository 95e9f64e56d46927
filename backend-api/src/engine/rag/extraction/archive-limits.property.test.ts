import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
// The extraction names as an application imports them.
import {
  DEFAULT_EXTRACTION_LIMITS,
  ExtractionError,
  ExtractionWorker,
  extractDocumentText,
  inflateArchive,
  type ExtractionLimitName,
  type ExtractionLimits,
} from '@wildo/backend-api';
import { withDeclaredSizes } from './extraction.fixtures.js';
import { EXTRACTION_MEDIA_TYPES as M } from './extraction.types.js';

// Packages generated at random (entry counts, sizes, compression, nesting, and what each entry declares about its
// size) against small bounds: whatever they hold, the bounds hold, and a refusal says which one it met.

const MiB = 1024 * 1024;

type Declared = 'honest' | 'understated' | 'directory-only';
type Content =
  | { kind: 'xml'; paragraphs: string[] }
  | { kind: 'spaces'; bytes: number }
  | { kind: 'bulk-xml'; bytes: number }
  | { kind: 'noise'; bytes: number }
  | { kind: 'package'; entries: EntrySpec[] };
interface EntrySpec {
  content: Content;
  declared: Declared;
  level: 0 | 1 | 9;
}

const ARCHIVE_LIMITS: readonly ExtractionLimitName[] = [
  'inflated_bytes',
  'compression_ratio',
  'declared_size',
  'entries',
  'depth',
];

function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

const ODT_CONTENT = (paragraphs: readonly string[]) =>
  strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ` +
      `xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>` +
      paragraphs.map((p) => `<text:p>${p}</text:p>`).join('') +
      '</office:text></office:body></office:document-content>',
  );

function bytesOf(content: Content, seed: number): Uint8Array {
  switch (content.kind) {
    case 'xml':
      return ODT_CONTENT(content.paragraphs);
    case 'spaces':
      return new Uint8Array(content.bytes).fill(0x20);
    case 'bulk-xml':
      // Well-formed, and about one paragraph element per 20 bytes: parsed whole, it builds millions of nodes.
      return ODT_CONTENT(Array.from({ length: Math.ceil(content.bytes / 20) }, () => 'w'));
    case 'noise':
      return noise(content.bytes, seed);
    default:
      return buildPackage(content.entries);
  }
}

/** Zips the entries (the first named `content.xml`, nested packages `*.zip`), then rewrites what each declares. */
function buildPackage(entries: readonly EntrySpec[]): Uint8Array {
  const names = entries.map((entry, i) =>
    i === 0 ? 'content.xml' : entry.content.kind === 'package' ? `nested${i}.zip` : `part${i}.bin`,
  );
  const zip = zipSync(
    Object.fromEntries(entries.map((entry, i) => [names[i], [bytesOf(entry.content, i + 1), { level: entry.level }]])),
  );
  const declaredOf = new Map(entries.map((entry, i) => [names[i], entry.declared]));
  const understate = (name: string, actual: number, mode: Declared) =>
    declaredOf.get(name) === mode ? Math.min(actual, 1024) : actual;
  const both = withDeclaredSizes(zip, (name, actual) => understate(name, actual, 'understated'));
  return withDeclaredSizes(both, (name, actual) => understate(name, actual, 'directory-only'), true);
}

const entrySpec = (maxSpaces: number) =>
  fc.letrec<{ entry: EntrySpec; content: Content }>((tie) => ({
    content: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({
        kind: fc.constant('xml' as const),
        paragraphs: fc.array(fc.constantFrom('Budget', 'Plan', 'Q3'), { maxLength: 5 }),
      }),
      fc.record({ kind: fc.constant('spaces' as const), bytes: fc.integer({ min: 0, max: maxSpaces }) }),
      fc.record({ kind: fc.constant('noise' as const), bytes: fc.integer({ min: 0, max: 256 * 1024 }) }),
      fc.record({
        kind: fc.constant('package' as const),
        entries: fc.array(tie('entry') as fc.Arbitrary<EntrySpec>, { minLength: 1, maxLength: 3 }),
      }),
    ),
    entry: fc.record({
      content: tie('content') as fc.Arbitrary<Content>,
      declared: fc.constantFrom<Declared>('honest', 'understated', 'directory-only'),
      level: fc.constantFrom<0 | 1 | 9>(0, 1, 9),
    }),
  })).entry;

const packageSpec = (maxSpaces: number) => fc.array(entrySpec(maxSpaces), { minLength: 1, maxLength: 5 });

/** The outcome of a run, checked for what every run must satisfy. */
function expectNamedRefusal(error: unknown): ExtractionError {
  expect(error).toBeInstanceOf(ExtractionError);
  const refusal = error as ExtractionError;
  expect(refusal.message.length).toBeGreaterThan(10);
  if (refusal.reason === 'limit_exceeded') expect(ARCHIVE_LIMITS).toContain(refusal.limit);
  else expect(['malformed_document', 'no_text_layer']).toContain(refusal.reason);
  return refusal;
}

describe('generated packages against the bounded inflater', () => {
  const limits: ExtractionLimits = {
    ...DEFAULT_EXTRACTION_LIMITS,
    maxDecompressedBytes: 2 * MiB,
    maxCompressionRatio: 50,
    maxZipEntries: 12,
    maxArchiveDepth: 2,
  };

  it('never hands back more than the bounds allow, and every refusal names the bound it met', () => {
    fc.assert(
      fc.property(packageSpec(4 * MiB), (entries) => {
        const bytes = buildPackage(entries);
        let inflated: Map<string, Uint8Array>;
        try {
          inflated = inflateArchive(bytes, limits, { select: () => true, nested: (name) => name.endsWith('.zip') });
        } catch (error) {
          expectNamedRefusal(error);
          return;
        }
        const total = [...inflated.values()].reduce((sum, data) => sum + data.byteLength, 0);
        expect(total).toBeLessThanOrEqual(limits.maxDecompressedBytes);
        expect(inflated.size).toBeLessThanOrEqual(limits.maxZipEntries);
        for (const name of inflated.keys()) expect(name.split('/').length).toBeLessThanOrEqual(limits.maxArchiveDepth);
      }),
      { numRuns: 30, seed: 2_112 },
    );
  });
});

describe('generated documents read in the extraction worker', () => {
  // A generated `content.xml` may hold up to 32 MiB of paragraphs: parsed whole, far more than the worker's heap
  // (48 MiB) can hold. Only the bounds stand between such a document and the cap.
  const worker = new ExtractionWorker({ memoryLimitMb: 48, idleMs: 60_000 });
  afterAll(() => worker.close());
  const limits = { maxDecompressedBytes: 4 * MiB, maxArchiveDepth: 2 };
  const content = fc.record({
    content: fc.oneof(
      fc.record({
        kind: fc.constant('xml' as const),
        paragraphs: fc.array(fc.constantFrom('Budget', 'Plan'), { maxLength: 5 }),
      }),
      fc.record({ kind: fc.constant('bulk-xml' as const), bytes: fc.integer({ min: 8 * MiB, max: 32 * MiB }) }),
    ),
    declared: fc.constantFrom<Declared>('honest', 'understated', 'directory-only'),
    level: fc.constant<0 | 1 | 9>(1),
  });
  const documentSpec = fc
    .tuple(content, fc.array(entrySpec(64 * 1024), { maxLength: 3 }))
    .map(([first, rest]) => [first, ...rest]);

  it('never exceeds the worker memory cap: each document is read or refused with its reason', async () => {
    await fc.assert(
      fc.asyncProperty(documentSpec, async (entries) => {
        const bytes = buildPackage(entries);
        try {
          const extracted = await extractDocumentText({ bytes, mediaType: M.ODT }, { reader: worker.read, limits });
          expect(extracted.reader).toBe('office-xml');
        } catch (error) {
          expect(expectNamedRefusal(error).limit).not.toBe('memory');
        }
      }),
      { numRuns: 8, seed: 4_224 },
    );
  });
});
