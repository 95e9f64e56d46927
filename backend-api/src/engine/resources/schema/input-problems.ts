import type { z } from 'zod';
import { MAX_REPORTED_PROBLEMS, type InputProblem } from '../../errors/index.js';

type Issue = z.core.$ZodIssue;

/**
 * Turns Zod issues into client-safe problems: a path and what was expected there. Never a submitted
 * value, never the name of an undeclared key (such a key is reported at its parent), at most 16.
 * `input` is the value that was validated, used to tell a missing field from a wrong one.
 */
export function toInputProblems(issues: readonly Issue[], input: unknown, basePath: readonly (string | number)[] = []): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    for (const problem of describeIssue(issue, input, basePath)) {
      const key = `${problem.path}\u0000${problem.expected}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(problem);
      if (problems.length >= MAX_REPORTED_PROBLEMS) return problems;
    }
  }
  return problems;
}

function describeIssue(issue: Issue, input: unknown, basePath: readonly (string | number)[]): InputProblem[] {
  const fullPath = [...basePath, ...issue.path.map((segment) => (typeof segment === 'symbol' ? '?' : segment))];
  const path = formatPath(fullPath);
  switch (issue.code) {
    case 'invalid_type':
      return [{ path, expected: valueAt(input, issue.path) === undefined ? 'required' : issue.expected }];
    case 'unrecognized_keys':
      return [{ path, expected: 'no undeclared fields' }];
    case 'too_small':
      return [{ path, expected: boundText('at least', issue.origin, issue.minimum, issue.inclusive) }];
    case 'too_big':
      return [{ path, expected: boundText('at most', issue.origin, issue.maximum, issue.inclusive) }];
    case 'invalid_format':
      return [{ path, expected: formatText(issue.format) }];
    case 'invalid_value':
      return [{ path, expected: `one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` }];
    case 'not_multiple_of':
      return [{ path, expected: `a multiple of ${String(issue.divisor)}` }];
    case 'invalid_union':
      return [{ path, expected: 'one of the declared shapes' }];
    case 'invalid_key':
      return [{ path, expected: 'a declared key' }];
    case 'invalid_element':
      return [{ path, expected: 'a declared element' }];
    case 'custom':
      // Refinement messages are written by the schema's author, never derived from the input.
      return [{ path, expected: issue.message }];
    default:
      return [{ path, expected: 'a valid value' }];
  }
}

function boundText(word: string, origin: string, bound: number | bigint | Date, inclusive?: boolean): string {
  const n = bound instanceof Date ? bound.toISOString() : String(bound);
  switch (origin) {
    case 'string':
      return `a string of ${word} ${inclusive === false ? adjust(word, bound) : n} characters`;
    case 'array':
    case 'set':
      return `${word} ${inclusive === false ? adjust(word, bound) : n} items`;
    default:
      return `a number ${word === 'at least' ? (inclusive === false ? '>' : '>=') : inclusive === false ? '<' : '<='} ${n}`;
  }
}

function adjust(word: string, bound: number | bigint | Date): string {
  if (typeof bound !== 'number') return String(bound);
  return String(word === 'at least' ? bound + 1 : bound - 1);
}

function formatText(format: string): string {
  switch (format) {
    case 'datetime':
      return 'an ISO 8601 date-time with offset';
    case 'date':
      return 'an ISO 8601 date (YYYY-MM-DD)';
    case 'email':
      return 'an email address';
    case 'url':
      return 'a URL';
    case 'uuid':
      return 'a UUID';
    case 'regex':
      return 'a string in the declared format';
    default:
      return `a string in ${format} format`;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** `a.b[2].c`; the root is `(root)`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out ? `.${segment}` : segment;
  return out || '(root)';
}
