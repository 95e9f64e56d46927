import { describe, expect, it } from 'vitest';
import { assembleContext, frameRow, type FusedHit } from './context-assembly.js';
import { reciprocalRankFusion, RRF_K } from './reciprocal-rank-fusion.js';

describe('reciprocalRankFusion', () => {
  it('sums 1/(k + rank) over the lists, so an item both arms found outranks each arm’s lone winner', () => {
    const fused = reciprocalRankFusion([{ items: ['a', 'b', 'c'] }, { items: ['d', 'b'] }], (x) => x);
    expect(fused.map((f) => f.item)).toEqual(['b', 'a', 'd', 'c']);
    expect(fused[0]?.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 2));
    expect(fused[1]?.score).toBeCloseTo(1 / (RRF_K + 1));
  });
});

describe('assembleContext', () => {
  const hit = (id: string, index: number, text: string, score: number): FusedHit => ({
    resourceType: 'docs',
    resourceId: id,
    header: `Doc ${id}`,
    passage: { field: 'body', chunkIndex: index, text, score },
  });

  it('groups passages by record in reading order and applies the limit to passages', () => {
    const hits = [
      hit('1', 2, 'third', 0.9),
      hit('2', 0, 'other', 0.8),
      hit('1', 0, 'first', 0.7),
      hit('3', 0, 'cut', 0.6),
    ];
    const { rows, truncation } = assembleContext(hits, 3, 10_000);
    expect(rows.map((row) => [row.resourceId, row.passages.map((p) => p.text)])).toEqual([
      ['1', ['first', 'third']],
      ['2', ['other']],
    ]);
    expect(rows[0]?.contextText).toBe(frameRow('docs', '1', 'Doc 1', rows[0]?.passages ?? []));
    expect(truncation.reachedContextCharacterBudget).toBe(false);
  });

  it('stops at the character budget and counts what it left out', () => {
    const long = 'x'.repeat(120);
    const hits = [hit('1', 0, long, 1), hit('1', 1, long, 0.9), hit('2', 0, long, 0.8)];
    const budget = frameRow('docs', '1', 'Doc 1', [hits[0]?.passage ?? hit('', 0, '', 0).passage]).length + 5;
    const { rows, contextCharacters, truncation } = assembleContext(hits, 10, budget);
    expect(rows.length).toBe(1);
    expect(rows[0]?.passages.length).toBe(1);
    expect(contextCharacters).toBeLessThanOrEqual(budget);
    expect(truncation).toEqual({
      reachedContextCharacterBudget: true,
      maxContextCharacters: budget,
      omittedRows: 1,
      omittedPassages: 2,
    });
  });
});
