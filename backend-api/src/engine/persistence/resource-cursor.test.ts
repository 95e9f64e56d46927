import { describe, expect, it } from 'vitest';
import { FrameworkError } from '../errors/index.js';
import {
  decodeListCursor,
  decodeSearchCursor,
  encodeListCursor,
  encodeSearchCursor,
  MAX_SEARCH_OFFSET,
} from './resource-cursor.js';

const refusal = (fn: () => unknown): FrameworkError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof FrameworkError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('resource cursors', () => {
  it('round-trips a list cursor as URL-safe text', () => {
    const cursor = encodeListCursor('todos', '9223372036854775807');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor('todos', cursor)).toBe('9223372036854775807');
  });

  it('round-trips a search cursor up to the cap', () => {
    expect(decodeSearchCursor('todos', encodeSearchCursor('todos', MAX_SEARCH_OFFSET))).toBe(MAX_SEARCH_OFFSET);
  });

  it('refuses with the documented error, naming the cursor path and not its value', () => {
    const error = refusal(() => decodeListCursor('todos', 'forged-value'));
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The cursor is not valid.',
      reason: 'input_invalid',
      problems: [{ path: 'cursor', expected: 'a cursor returned by the previous page' }],
    });
    expect(JSON.stringify(error)).not.toContain('forged-value');
  });

  it('refuses a cursor of another resource type; the same type is accepted', () => {
    const cursor = encodeListCursor('todos', '5');
    expect(refusal(() => decodeListCursor('notes', cursor)).code).toBe('VALIDATION_FAILED');
    expect(decodeListCursor('todos', cursor)).toBe('5');
  });

  it('refuses a search cursor as a list cursor and the reverse', () => {
    expect(refusal(() => decodeListCursor('todos', encodeSearchCursor('todos', 5))).code).toBe('VALIDATION_FAILED');
    expect(refusal(() => decodeSearchCursor('todos', encodeListCursor('todos', '5'))).code).toBe('VALIDATION_FAILED');
  });

  it('refuses values that are not strings', () => {
    expect(refusal(() => decodeListCursor('todos', 42)).code).toBe('VALIDATION_FAILED');
    expect(refusal(() => decodeListCursor('todos', null)).code).toBe('VALIDATION_FAILED');
  });

  it('refuses numbers with leading zeros or signs that would decode to the same value', () => {
    const spoof = Buffer.from('l:todos:05').toString('base64url');
    expect(refusal(() => decodeListCursor('todos', spoof)).code).toBe('VALIDATION_FAILED');
  });
});
