import { JSONPath } from 'jsonpath-plus';

/** A JSONPath compiled once at start. */
export interface CompiledJsonPath {
  readonly source: string;
  /** Whether the path names at most one value (no wildcard, recursion, slice or union). */
  readonly definite: boolean;
  /** The value at a definite path (undefined when absent); the list of matches of an indefinite one. */
  read(json: unknown): unknown;
}

/** A JSONPath the connectors refuse, with what to write instead. */
export class JsonPathProblem extends Error {
  override readonly name = 'JsonPathProblem';
}

// Script expressions (`?()`, `()`), the current-node and parent operators and property-name output are refused:
// a mapping reads values, it never evaluates anything.
const REFUSED = /[?()@^~`]/;
const INDEFINITE = /[*,:]/;
const INDEX = /^(0|[1-9]\d*)$/;

/**
 * Compiles a JSONPath for reading a backend's answer: `$`, names, indices, `[*]`, `..`, unions and slices. Script
 * and filter expressions are refused here and never evaluated (jsonpath-plus runs with `eval: false`).
 *
 * @example
 * compileJsonPath('$.stays[*]').read({ stays: [{ id: 1 }] }); // [{ id: 1 }]
 * compileJsonPath('$.error.code').read({ error: { code: 'busy' } }); // 'busy'
 */
export function compileJsonPath(source: string): CompiledJsonPath {
  if (typeof source !== 'string' || !source.startsWith('$'))
    throw new JsonPathProblem('a JSONPath starts with "$" (e.g. "$.name" or "$.items[*]")');
  if (REFUSED.test(source))
    throw new JsonPathProblem(
      'filters and script expressions are not evaluated; use a plain path such as "$.items[*].name"',
    );
  let segments: string[];
  try {
    segments = JSONPath.toPathArray(source).slice(1);
  } catch {
    throw new JsonPathProblem('this JSONPath does not parse; use a path such as "$.items[*].name"');
  }
  if (segments[0] === '$' || segments.some((s) => s === ''))
    throw new JsonPathProblem('this JSONPath does not parse; use a path such as "$.items[*].name"');
  const definite = segments.every((s) => s !== '..' && !INDEFINITE.test(s));
  if (definite) return { source, definite, read: (json) => readDefinite(json, segments) };
  return {
    source,
    definite,
    read: (json) => JSONPath({ path: source, json: json as object, eval: false, wrap: true, ignoreEvalErrors: false }),
  };
}

/** Follows plain names and indices; own properties only. */
function readDefinite(json: unknown, segments: readonly string[]): unknown {
  let current: unknown = json;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!INDEX.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (current !== null && typeof current === 'object' && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}
