import type { InputProblem } from '../../errors/index.js';
import { reportablePath, type JsonPathSegment } from './input-paths.js';

/** What every refusal of unstorable text says is expected (the value itself is never repeated). */
export const STORABLE_TEXT_EXPECTATION = 'text without NUL characters or unpaired UTF-16 surrogates';

// PostgreSQL text cannot hold U+0000, and UTF-8 cannot encode a lone surrogate. Most text contains neither, so
// one cheap scan for any NUL or surrogate comes first; only a hit pays for the precise pairing check.
const SUSPECT = /[\u0000\ud800-\udfff]/;
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether a string can be stored as PostgreSQL text: no NUL, every surrogate paired. */
export function isStorableText(text: string): boolean {
  return !SUSPECT.test(text) || !UNSTORABLE.test(text);
}

interface Frame {
  value: object;
  parent: Frame | undefined;
  key: JsonPathSegment | undefined;
}

function pathOf(frame: Frame, last?: JsonPathSegment): JsonPathSegment[] {
  const path: JsonPathSegment[] = last === undefined ? [] : [last];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

function isPlainContainer(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The path of the first string or object key in a JSON value that PostgreSQL cannot store, or undefined when
 * all of it can be. An unstorable key is reported at its parent. Iterative, so deep nesting cannot overflow.
 *
 * @example firstUnstorablePath({ a: ['ok', 'x\u0000'] }) // ['a', 1]
 */
export function firstUnstorablePath(value: unknown): JsonPathSegment[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : [];
  if (!isPlainContainer(value)) return undefined;
  const stack: Frame[] = [{ value, parent: undefined, key: undefined }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (Array.isArray(frame.value)) {
      const items = frame.value as unknown[];
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (typeof item === 'string') {
          if (!isStorableText(item)) return pathOf(frame, i);
        } else if (isPlainContainer(item)) stack.push({ value: item, parent: frame, key: i });
      }
      continue;
    }
    const record = frame.value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!isStorableText(key)) return pathOf(frame);
      const item = record[key];
      if (typeof item === 'string') {
        if (!isStorableText(item)) return pathOf(frame, key);
      } else if (isPlainContainer(item)) stack.push({ value: item, parent: frame, key });
    }
  }
  return undefined;
}

/** The problem to report for a value holding unstorable text (`root` names the whole value), or undefined. */
export function unstorableTextProblem(value: unknown, root = '(root)'): InputProblem | undefined {
  const path = firstUnstorablePath(value);
  return path === undefined ? undefined : { path: reportablePath(path, root), expected: STORABLE_TEXT_EXPECTATION };
}

/**
 * A copy of a value whose text can be stored: NUL dropped, lone surrogates replaced by U+FFFD, in strings and
 * keys. For text the server did not receive from a caller (a model's answer, an external tool's result), which
 * is kept rather than refused. Returns the value itself when nothing needs replacing.
 */
export function toStorableValue<T>(value: T): T {
  if (firstUnstorablePath(value) === undefined) return value;
  return rebuild(value) as T;
}

function rebuild(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (!isPlainContainer(value)) return value;
  if (Array.isArray(value)) return value.map(rebuild);
  const out: Record<string, unknown> = {};
  // defineProperty: a `__proto__` key stays a plain key, as JSON.parse made it.
  for (const [key, item] of Object.entries(value)) Object.defineProperty(out, storableText(key), { value: rebuild(item), enumerable: true, writable: true, configurable: true });
  return out;
}

function storableText(text: string): string {
  return isStorableText(text) ? text : text.replace(UNSTORABLE_ALL, (match) => (match === '\u0000' ? '' : '\ufffd'));
}
