import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { inflateArchive } from './bounded-inflater.js';
import { lyingDocxBomb, minimalDocx, withDeclaredSizes } from './extraction.fixtures.js';
import { DEFAULT_EXTRACTION_LIMITS, ExtractionError, type ExtractionLimits } from './extraction.types.js';

const MiB = 1024 * 1024;
const everything = { select: () => true };

function refusal(run: () => unknown): ExtractionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError);
    return error as ExtractionError;
  }
  throw new Error('expected a refusal');
}

/** Bytes that barely compress (a linear congruential sequence), so their ratio stays near 1. */
function incompressible(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = 2463534242;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

describe('inflateArchive', () => {
  it('stops an entry that inflates past the size it declares, and reads the honest package', () => {
    const bomb = lyingDocxBomb(4 * 1024, 16 * MiB);
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const error = refusal(() => inflateArchive(bomb, DEFAULT_EXTRACTION_LIMITS, everything));
    expect({ reason: error.reason, limit: error.limit }).toEqual({ reason: 'limit_exceeded', limit: 'declared_size' });
    expect(error.message).toContain('word/document.xml declares 4 KiB');
    const honest = inflateArchive(minimalDocx(['Fine']), DEFAULT_EXTRACTION_LIMITS, everything);
    expect(new TextDecoder().decode(honest.get('word/document.xml'))).toContain('Fine');
  });

  it('stops at the inflated total when the central directory understates what the entries hold', () => {
    const limits: ExtractionLimits = { ...DEFAULT_EXTRACTION_LIMITS, maxDecompressedBytes: 2 * MiB };
    // Three entries of 1 MiB (poorly compressible, so no ratio applies).
    const zip = zipSync(Object.fromEntries([1, 2, 3].map((n) => [`part${n}.bin`, incompressible(MiB)])));
    // Honest, the package is refused from its directory before anything inflates.
    expect(refusal(() => inflateArchive(zip, limits, everything)).message).toContain('declares 3145728 inflated bytes');
    // A directory claiming 1 KiB each passes that check; the headers tell the truth, so only the total stops it.
    const understated = withDeclaredSizes(zip, () => 1024, true);
    expect(refusal(() => inflateArchive(understated, limits, everything)).limit).toBe('inflated_bytes');
    // Lying in the headers too, the first entry breaks its own word.
    const lying = withDeclaredSizes(zip, () => 1024);
    expect(refusal(() => inflateArchive(lying, limits, everything)).limit).toBe('declared_size');
    // Control: two of them fit.
    const two = zipSync({ 'a.bin': incompressible(MiB), 'b.bin': incompressible(MiB - 1024) });
    expect([...inflateArchive(two, limits, everything).keys()]).toEqual(['a.bin', 'b.bin']);
  });

  it('stops an entry whose compression ratio passes the bound, past the floor small parts never reach', () => {
    const limits: ExtractionLimits = { ...DEFAULT_EXTRACTION_LIMITS, maxCompressionRatio: 50 };
    const zeros = zipSync({ 'content.xml': [new Uint8Array(4 * MiB), { level: 9 }] });
    const error = refusal(() => inflateArchive(zeros, limits, everything));
    expect({ limit: error.limit, message: error.message }).toEqual({
      limit: 'compression_ratio',
      message: 'The entry content.xml inflates more than 50 times its compressed size.',
    });
    // The same ratio below the floor (512 KiB of zeros) is an ordinary, very compressible part.
    const small = zipSync({ 'content.xml': [new Uint8Array(512 * 1024), { level: 9 }] });
    expect(inflateArchive(small, limits, everything).get('content.xml')?.byteLength).toBe(512 * 1024);
  });

  it('counts entries, inflates only the selected ones, and opens nested packages only to the allowed depth', () => {
    const many = zipSync(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`e${i}.xml`, strToU8('<x/>')])));
    const limits: ExtractionLimits = { ...DEFAULT_EXTRACTION_LIMITS, maxZipEntries: 10, maxArchiveDepth: 2 };
    expect(refusal(() => inflateArchive(many, limits, everything)).limit).toBe('entries');
    const selected = inflateArchive(many, { ...limits, maxZipEntries: 12 }, { select: (name) => name === 'e3.xml' });
    expect([...selected.keys()]).toEqual(['e3.xml']);

    const inner = zipSync({ 'inner.xml': strToU8('<inner/>') });
    const middle = zipSync({ 'inner.zip': inner });
    const outer = zipSync({ 'middle.zip': middle, 'top.xml': strToU8('<top/>') });
    const nested = { select: () => true, nested: (name: string) => name.endsWith('.zip') };
    expect(refusal(() => inflateArchive(outer, limits, nested)).limit).toBe('depth');
    const twoLevels = inflateArchive(middle, limits, nested);
    expect([...twoLevels.keys()]).toEqual(['inner.zip/inner.xml']);
    // Without a `nested` rule a package inside is only bytes, whatever the depth.
    expect(inflateArchive(outer, limits, everything).get('middle.zip')).toEqual(middle);
  });

  it('refuses bytes that are not a package, or a package cut short, as malformed', () => {
    expect(
      refusal(() => inflateArchive(strToU8('not a zip at all'), DEFAULT_EXTRACTION_LIMITS, everything)).reason,
    ).toBe('malformed_document');
    const cut = minimalDocx(['x']).slice(0, 80);
    expect(refusal(() => inflateArchive(cut, DEFAULT_EXTRACTION_LIMITS, everything)).reason).toBe('malformed_document');
  });
});
