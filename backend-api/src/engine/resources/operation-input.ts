import { CoreResourceOperation } from '@wildo/shared-lib';
import type { z } from 'zod';
import { FrameworkError, MAX_REPORTED_PROBLEMS, type InputProblem } from '../errors/index.js';
import type { StoreFilters } from '../persistence/index.js';
import type { CompiledFilter, CompiledOperation } from './compiled-resource.types.js';
import { MAX_CURSOR_LENGTH } from './operation-contracts.js';
import {
  declaredNamesText,
  defOf,
  isPlausibleIdentifier,
  NO_UNDECLARED_FIELDS,
  toInputProblems,
  unstorableTextProblem,
} from './schema/index.js';

/** Record ids are opaque; anything outside this alphabet cannot name a record and is answered as not found. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A validated LIST/SEARCH query. */
export interface PageQuery {
  filters: StoreFilters;
  limit: number;
  cursor?: string;
  text?: string;
}

/** The one refusal of input that does not satisfy a contract: 400 VALIDATION_FAILED, reason `input_invalid`. */
export function inputInvalid(problems: readonly InputProblem[]): FrameworkError {
  return new FrameworkError('VALIDATION_FAILED', 'The request does not satisfy the operation contract.', {
    reason: 'input_invalid',
    problems: problems.slice(0, MAX_REPORTED_PROBLEMS),
  });
}

/**
 * Refuses a value holding text the database cannot store (NUL, a lone surrogate) in any string or key, naming
 * where (`root` names the value itself) and never the text. Every boundary that accepts input calls this.
 */
export function refuseUnstorableText(value: unknown, root = '(root)'): void {
  const problem = unstorableTextProblem(value, root);
  if (problem) throw inputInvalid([problem]);
}

/** Refuses an id that cannot name a record, the same way as a missing record. */
export function checkRecordId(id: string | undefined): string {
  if (!id || !RECORD_ID.test(id)) throw new FrameworkError('NOT_FOUND', 'The record was not found.');
  return id;
}

/** Validates a body against the operation's strict input contract; operations without one accept no body. */
export function validateBody(operation: CompiledOperation, body: unknown): unknown {
  if (!operation.inputSchema) {
    const empty =
      body === undefined ||
      (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
    if (!empty) throw inputInvalid([{ path: '(root)', expected: 'no request body' }]);
    return undefined;
  }
  return parseContract(operation.inputSchema, body === undefined ? {} : body, operation.readOnlyFields);
}

/**
 * Parses input with a strict contract; failures become VALIDATION_FAILED with client-safe problems. Text the
 * database cannot store is refused first, whoever parsed the body (REST, MCP, an agent's tool call).
 * `readOnlyFields` are named as such when a caller sends them.
 */
export function parseContract<T>(schema: z.ZodType<T>, input: unknown, readOnlyFields?: readonly string[]): T {
  refuseUnstorableText(input);
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw inputInvalid(
      toInputProblems(parsed.error.issues, input, [], { schema, ...(readOnlyFields ? { readOnlyFields } : {}) }),
    );
  return parsed.data;
}

/** Parses a LIST query string: declared filters, `limit` and `cursor` only, each a single value. */
export function parseListQuery(operation: CompiledOperation, query: Record<string, unknown>): PageQuery {
  refuseUnstorableText(query, '(query)');
  const problems: InputProblem[] = [];
  const filters: Record<string, string | number | boolean | null> = {};
  let limit = operation.pageSize.default;
  let cursor: string | undefined;
  for (const [key, raw] of Object.entries(query)) {
    if (typeof raw !== 'string') {
      const declared = operation.filters.has(key) || key === 'limit' || key === 'cursor';
      problems.push(
        declared
          ? { path: key, expected: 'a single value' }
          : undeclaredFilter(operation, key, '(query)', 'no undeclared parameters'),
      );
      continue;
    }
    if (key === 'limit') {
      const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
      if (!(n >= 1 && n <= operation.pageSize.max))
        problems.push({ path: 'limit', expected: `an integer from 1 to ${operation.pageSize.max}` });
      else limit = n;
    } else if (key === 'cursor') {
      if (raw.length === 0 || raw.length > MAX_CURSOR_LENGTH)
        problems.push({ path: 'cursor', expected: 'a cursor returned by the previous page' });
      else cursor = raw;
    } else {
      const filter = operation.filters.get(key);
      if (!filter) problems.push(undeclaredFilter(operation, key, '(query)', 'no undeclared parameters'));
      else {
        const value = decodeFilterValue(filter, raw);
        if (value === undefined) problems.push({ path: key, expected: filterExpectation(filter) });
        else filters[key] = value;
      }
    }
  }
  if (problems.length > 0) throw inputInvalid(dedupe(problems));
  return { filters, limit, ...(cursor ? { cursor } : {}) };
}

/**
 * Parses typed LIST arguments (a tool call's JSON, where numbers are numbers): declared filters, `limit`
 * and `cursor` only. The same rules as the query string, without the URL decoding.
 */
export function parseListArguments(operation: CompiledOperation, args: Record<string, unknown>): PageQuery {
  refuseUnstorableText(args);
  const problems: InputProblem[] = [];
  const filters: Record<string, string | number | boolean | null> = {};
  let limit = operation.pageSize.default;
  let cursor: string | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (key === 'limit') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > operation.pageSize.max) {
        problems.push({ path: 'limit', expected: `an integer from 1 to ${operation.pageSize.max}` });
      } else limit = value;
    } else if (key === 'cursor') {
      if (typeof value !== 'string' || value.length === 0 || value.length > MAX_CURSOR_LENGTH)
        problems.push({ path: 'cursor', expected: 'a cursor returned by the previous page' });
      else cursor = value;
    } else {
      const filter = operation.filters.get(key);
      if (!filter) problems.push(undeclaredFilter(operation, key, '(root)', NO_UNDECLARED_FIELDS));
      else if (value === null && filter.nullable) filters[key] = null;
      else if (typeof value !== filter.kind || !filter.schema.safeParse(value).success)
        problems.push({ path: key, expected: filterExpectation(filter) });
      else filters[key] = value as string | number | boolean;
    }
  }
  if (problems.length > 0) throw inputInvalid(dedupe(problems));
  return { filters, limit, ...(cursor ? { cursor } : {}) };
}

/** Maps a validated SEARCH body to a page query. */
export function searchQueryOf(
  operation: CompiledOperation,
  input: { query: string; filters?: StoreFilters; limit?: number; cursor?: string },
): PageQuery {
  return {
    text: input.query,
    filters: input.filters ?? {},
    limit: input.limit ?? operation.pageSize.default,
    ...(input.cursor ? { cursor: input.cursor } : {}),
  };
}

/** A query-string value decoded by the filter's declared kind (URL text is decoded, not coerced), or undefined. */
function decodeFilterValue(filter: CompiledFilter, raw: string): string | number | boolean | null | undefined {
  let value: string | number | boolean;
  if (filter.kind === 'number') {
    if (!/^-?\d{1,15}(\.\d{1,15})?$/.test(raw)) return undefined;
    value = Number(raw);
  } else if (filter.kind === 'boolean') {
    if (raw !== 'true' && raw !== 'false') return undefined;
    value = raw === 'true';
  } else value = raw;
  return filter.schema.safeParse(value).success ? value : undefined;
}

/** An undeclared LIST parameter: named with the declared filters when it may be repeated, else at its parent. */
function undeclaredFilter(operation: CompiledOperation, key: string, parent: string, unnamed: string): InputProblem {
  if (!isPlausibleIdentifier(key)) return { path: parent, expected: unnamed };
  const filters = [...operation.filters.keys()];
  return {
    path: key,
    expected:
      filters.length > 0
        ? `${declaredNamesText('filter', filters)} (or limit, cursor)`
        : 'only limit and cursor (no filters are declared)',
  };
}

function filterExpectation(filter: CompiledFilter): string {
  const def = defOf(filter.schema);
  const allowed =
    def.type === 'enum' ? Object.values(def.entries ?? {}) : def.type === 'literal' ? (def.values ?? []) : undefined;
  if (allowed) return `one of: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  if (filter.kind === 'number') return 'a number allowed by the field';
  if (filter.kind === 'boolean') return 'true or false';
  return 'a value allowed by the field';
}

function dedupe(problems: InputProblem[]): InputProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}|${p.expected}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether an operation returns a page of records. */
export function isPaged(operation: CompiledOperation): boolean {
  return operation.core === CoreResourceOperation.LIST || operation.core === CoreResourceOperation.SEARCH;
}
