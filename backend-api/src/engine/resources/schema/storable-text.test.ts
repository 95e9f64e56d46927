import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsUnstorableText } from '../../../testing/hostile-text.fixtures.js';
import { isPlausibleIdentifier, reportablePath } from './input-paths.js';
import {
  firstUnstorablePath,
  isStorableText,
  STORABLE_TEXT_EXPECTATION,
  toStorableValue,
  unstorableTextProblem,
} from './storable-text.js';

describe('isStorableText', () => {
  it('accepts well-formed text of any script, paired surrogates included', () => {
    for (const text of ['', 'plain', 'e\u0301', '\u200f\u202e', '👩‍👩‍👧‍👦', '𝔸𝔹', '\ud83d\ude00', 'ﷺ'])
      expect(isStorableText(text), JSON.stringify(text)).toBe(true);
  });

  it('refuses NUL and every unpaired surrogate', () => {
    for (const text of [
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udbff',
      '\udc00y',
      '\udfff',
      '\udc00\ud800',
      '\ud83d\ude00\ud83d',
      'ok\ud800\ud800\udc00',
    ]) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('agrees with a pairing oracle for any UTF-16 text (code units drawn near the surrogate range and NUL)', () => {
    const unit = fc
      .oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd7fe, max: 0xe001 }), fc.constant(0))
      .map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (text) => isStorableText(text) === !holdsUnstorableText(text)),
      { seed: 7, numRuns: 2_000 },
    );
  });
});

describe('firstUnstorablePath', () => {
  it('finds unstorable text in values at any depth, and reports an unstorable key at its parent', () => {
    expect(firstUnstorablePath({ a: 'ok', b: [{ c: 'x\u0000' }] })).toEqual(['b', 0, 'c']);
    expect(firstUnstorablePath({ list: ['fine', '\udc00'] })).toEqual(['list', 1]);
    expect(firstUnstorablePath({ nested: { ['k\ud800']: 1 } })).toEqual(['nested']);
    expect(firstUnstorablePath('\u0000')).toEqual([]);
  });

  it('passes storable values, numbers, booleans and null', () => {
    expect(firstUnstorablePath({ a: 'é', b: [1, true, null, { c: '😀' }] })).toBeUndefined();
    expect(firstUnstorablePath(42)).toBeUndefined();
    expect(firstUnstorablePath(undefined)).toBeUndefined();
  });

  it('walks nesting deeper than the call stack without overflowing', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(firstUnstorablePath(deep)).toHaveLength(100_000);
  });
});

describe('problems about unstorable text', () => {
  it('name the path, never the text, and cut it before a key that is not a plain identifier', () => {
    expect(unstorableTextProblem({ checklist: [{ label: 'secret\u0000' }] })).toEqual({
      path: 'checklist[0].label',
      expected: STORABLE_TEXT_EXPECTATION,
    });
    expect(unstorableTextProblem({ '<b>key</b>': { inner: '\ud800' } })).toEqual({
      path: '(root)',
      expected: STORABLE_TEXT_EXPECTATION,
    });
    expect(unstorableTextProblem({ status: '\u0000' }, '(query)')).toEqual({
      path: 'status',
      expected: STORABLE_TEXT_EXPECTATION,
    });
    expect(unstorableTextProblem({ fine: 'text' })).toBeUndefined();
  });

  it('repeat a key only when it is a short plain identifier', () => {
    for (const key of ['title', 'checklist_2', 'a.b-c', 'k'.repeat(64)])
      expect(isPlausibleIdentifier(key), key).toBe(true);
    for (const key of ['', 'k'.repeat(65), 'two words', '$where', '<script>', 'ключ', 'a\u0000'])
      expect(isPlausibleIdentifier(key), key).toBe(false);
    expect(reportablePath(['a', 0, 'two words', 'b'])).toBe('a[0]');
  });
});

describe('toStorableValue', () => {
  it('drops NUL and replaces unpaired surrogates with U+FFFD in values and keys, keeping pairs', () => {
    expect(toStorableValue({ text: 'a\u0000b\ud800c😀', ['k\udc00']: ['\udfff'] })).toEqual({
      text: 'ab\ufffdc😀',
      'k\ufffd': ['\ufffd'],
    });
  });

  it('returns the value itself when it is already storable', () => {
    const value = { text: 'fine', list: ['😀'] };
    expect(toStorableValue(value)).toBe(value);
  });

  it('keeps a __proto__ key a plain key', () => {
    const value = JSON.parse('{"__proto__": {"polluted": "\\u0000"}}') as Record<string, unknown>;
    const repaired = toStorableValue(value);
    expect(Object.keys(repaired)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
