import type { z } from 'zod';
import { MAX_REPORTED_PROBLEMS, type InputProblem } from '../../errors/index.js';
import { formatPath, isPlausibleIdentifier } from './input-paths.js';
import { declaredKeysAt } from './zod-internals.js';

type Issue = z.core.$ZodIssue;

/** What a refusal may say about the contract that was applied (its vocabulary, never the submitted values). */
export interface InputProblemContext {
  /** Top-level fields a caller reads but cannot write (system and read-only fields): named as such. */
  readOnlyFields?: readonly string[];
  /** The contract applied: an undeclared key is answered with the keys it declares at that place. */
  schema?: z.ZodType;
}

/** How many declared names an expectation lists before it stops. */
const MAX_LISTED_NAMES = 20;

/** The unnamed report of an undeclared key (a key that is not a plausible identifier is never repeated). */
export const NO_UNDECLARED_FIELDS = 'no undeclared fields';
/** The expectation of a read-only field a caller tried to write. */
export const READ_ONLY_FIELD = 'not writable: read-only field';

/** `a declared field: a, b, c`, shortened past {@link MAX_LISTED_NAMES}; for filters, parameters, fields. */
export function declaredNamesText(kind: string, names: readonly string[]): string {
  if (names.length === 0) return `no ${kind}s are declared`;
  const listed = names.slice(0, MAX_LISTED_NAMES).join(', ');
  return `a declared ${kind}: ${listed}${names.length > MAX_LISTED_NAMES ? ', …' : ''}`;
}

/**
 * Turns Zod issues into client-safe problems: a path and what was expected there. Never a submitted value;
 * an undeclared key is named only when it is a plausible identifier (else it is reported at its parent); at
 * most 16. `input` is the value that was validated, used to tell a missing field from a wrong one.
 */
export function toInputProblems(
  issues: readonly Issue[],
  input: unknown,
  basePath: readonly (string | number)[] = [],
  context: InputProblemContext = {},
): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    for (const problem of describeIssue(issue, input, basePath, context)) {
      const key = `${problem.path}\u0000${problem.expected}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(problem);
      if (problems.length >= MAX_REPORTED_PROBLEMS) return problems;
    }
  }
  return problems;
}

function describeIssue(
  issue: Issue,
  input: unknown,
  basePath: readonly (string | number)[],
  context: InputProblemContext,
): InputProblem[] {
  const fullPath = [...basePath, ...issue.path.map((segment) => (typeof segment === 'symbol' ? '?' : segment))];
  const path = formatPath(fullPath);
  switch (issue.code) {
    case 'invalid_type':
      return [{ path, expected: valueAt(input, issue.path) === undefined ? 'required' : issue.expected }];
    case 'unrecognized_keys':
      return undeclaredKeys(issue.keys, fullPath, issue.path, context);
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

/** Each undeclared key at its own path when it may be named (read-only fields as such), the rest at the parent. */
function undeclaredKeys(
  keys: readonly string[],
  fullPath: readonly (string | number)[],
  issuePath: readonly PropertyKey[],
  context: InputProblemContext,
): InputProblem[] {
  const problems: InputProblem[] = [];
  let unnamed = false;
  let declared: string | undefined;
  for (const key of keys) {
    if (!isPlausibleIdentifier(key)) {
      unnamed = true;
      continue;
    }
    if (fullPath.length === 0 && context.readOnlyFields?.includes(key)) {
      problems.push({ path: formatPath([key]), expected: READ_ONLY_FIELD });
      continue;
    }
    declared ??= declaredExpectation(context.schema, issuePath);
    problems.push({ path: formatPath([...fullPath, key]), expected: declared });
  }
  if (unnamed) problems.push({ path: formatPath(fullPath), expected: NO_UNDECLARED_FIELDS });
  return problems;
}

function declaredExpectation(schema: z.ZodType | undefined, issuePath: readonly PropertyKey[]): string {
  const keys = schema ? declaredKeysAt(schema, issuePath) : undefined;
  return keys ? declaredNamesText('field', keys) : 'not a declared field';
}
