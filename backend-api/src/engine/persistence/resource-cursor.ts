import { FrameworkError } from '../errors/index.js';

/**
 * Opaque page cursors. A list cursor carries the last `seq` seen (keyset); a search cursor carries
 * an offset, capped because ranking has no stable key. Both name their kind and resource type so a
 * cursor of another listing is refused. Decoding is strict: anything not produced here is refused.
 */

/** The deepest offset a search cursor may point at; beyond it the search ends (refine the query). */
export const MAX_SEARCH_OFFSET = 10_000;

const MAX_CURSOR_LENGTH = 200;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_BIGINT = 9_223_372_036_854_775_807n;
const POSITIVE_INTEGER = /^[1-9][0-9]{0,18}$/;

/** The one refusal for every cursor the store did not issue; it never echoes the cursor. */
export function invalidCursorError(): FrameworkError {
  return new FrameworkError('VALIDATION_FAILED', 'The cursor is not valid.', {
    reason: 'input_invalid',
    problems: [{ path: 'cursor', expected: 'a cursor returned by the previous page' }],
  });
}

function encode(kind: 'l' | 's', resourceType: string, value: string): string {
  return Buffer.from(`${kind}:${resourceType}:${value}`, 'utf8').toString('base64url');
}

/** The value of a cursor of this kind and type, or a refusal. */
function decode(kind: 'l' | 's', resourceType: string, cursor: unknown): string {
  if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor))
    throw invalidCursorError();
  const bytes = Buffer.from(cursor, 'base64url');
  // Non-canonical spellings decode to the same bytes; refusing them keeps "issued by us" exact.
  if (bytes.toString('base64url') !== cursor) throw invalidCursorError();
  const prefix = `${kind}:${resourceType}:`;
  const text = bytes.toString('utf8');
  if (!text.startsWith(prefix)) throw invalidCursorError();
  const value = text.slice(prefix.length);
  if (!POSITIVE_INTEGER.test(value)) throw invalidCursorError();
  return value;
}

/** A cursor continuing a newest-first listing after the record with this `seq`. */
export function encodeListCursor(resourceType: string, seq: string): string {
  return encode('l', resourceType, seq);
}

/** The `seq` a list cursor continues after (a decimal string within bigint range). */
export function decodeListCursor(resourceType: string, cursor: unknown): string {
  const seq = decode('l', resourceType, cursor);
  if (BigInt(seq) > MAX_BIGINT) throw invalidCursorError();
  return seq;
}

/** A cursor continuing a search at `offset`. */
export function encodeSearchCursor(resourceType: string, offset: number): string {
  return encode('s', resourceType, String(offset));
}

/** The offset a search cursor continues at (1 to {@link MAX_SEARCH_OFFSET}). */
export function decodeSearchCursor(resourceType: string, cursor: unknown): number {
  const offset = Number(decode('s', resourceType, cursor));
  if (offset > MAX_SEARCH_OFFSET) throw invalidCursorError();
  return offset;
}
