import type { InputProblem } from '../../errors/index.js';
import { reportablePath, type JsonPathSegment } from './input-paths.js';

/** What every refusal of unstorable text says is expected (the value itself is never repeated). */
export const STORABLE_TEXT_EXPECTATION = 'text without NUL characters or unpaired UTF-16 surrogates';

/** `String.prototype.isWellFormed` / `toWellFormed` (ES2024, Node 20+), not in this project's ES2023 lib. */
type WellFormedText = string & { isWellFormed(): boolean; toWellFormed(): string };

/**
 * Whether a string can be stored as PostgreSQL text: no NUL (text columns and jsonb refuse U+0000) and every
 * UTF-16 surrogate paired (UTF-8 cannot encode a lone one). Both checks are native scans: on the REST hot path
 * they cost about a sixth of a regular-expression scan for the same answer.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && (text as WellFormedText).isWellFormed();
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

/** Nesting the allocation-free first pass walks by recursion; anything deeper is left to the iterative walk. */
const MAX_RECURSION = 64;

/** Whether a value may hold unstorable text (true when it is nested too deep to tell by recursion). */
function mayHoldUnstorable(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !isStorableText(value);
  if (!isPlainContainer(value)) return false;
  if (depth >= MAX_RECURSION) return true;
  if (Array.isArray(value)) return value.some((item) => mayHoldUnstorable(item, depth + 1));
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!isStorableText(key) || mayHoldUnstorable(record[key], depth + 1)) return true;
  return false;
}

/**
 * The path of the first string or object key in a JSON value that PostgreSQL cannot store, or undefined when
 * all of it can be. An unstorable key is reported at its parent. A recursive pass without allocations answers
 * the common case; the path is then found iteratively, so deep nesting cannot overflow the stack.
 *
 * @example firstUnstorablePath({ a: ['ok', 'x\u0000'] }) // ['a', 1]
 */
export function firstUnstorablePath(value: unknown): JsonPathSegment[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : [];
  if (!mayHoldUnstorable(value, 0) || !isPlainContainer(value)) return undefined;
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
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, storableText(key), {
      value: rebuild(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

function storableText(text: string): string {
  return isStorableText(text) ? text : (text.replaceAll('\u0000', '') as WellFormedText).toWellFormed();
}
