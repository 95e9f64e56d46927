import type { ResponseMapping } from './connector.types.js';
import { compileJsonPath, JsonPathProblem, type CompiledJsonPath } from './json-path.js';

/** A problem in a binding, at a path inside it (`response.map.name`), with what to do. */
export interface BindingProblem {
  path: string;
  message: string;
}

/** Turns a backend's answer into an operation's output, before projection judges it. */
export type AnswerMapper = (answer: unknown) => unknown;

type Row = Record<string, unknown>;
type FieldReaders = readonly (readonly [string, CompiledJsonPath])[];

/** The row marker of a collection that declares error rows (`onError`). */
export const ROW_MARKER = '$row';

function compilePath(source: unknown, path: string, problems: BindingProblem[]): CompiledJsonPath | undefined {
  try {
    return compileJsonPath(source as string);
  } catch (error) {
    if (!(error instanceof JsonPathProblem)) throw error;
    problems.push({ path, message: error.message });
    return undefined;
  }
}

function compileFields(map: unknown, path: string, problems: BindingProblem[]): FieldReaders {
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    problems.push({ path, message: 'map each declared field to a JSONPath, e.g. { name: "$.name" }' });
    return [];
  }
  const readers: (readonly [string, CompiledJsonPath])[] = [];
  for (const [field, source] of Object.entries(map)) {
    if (field === '__proto__' || field === ROW_MARKER) {
      problems.push({ path: `${path}.${field}`, message: `"${field}" cannot be mapped; map declared fields only` });
      continue;
    }
    const reader = compilePath(source, `${path}.${field}`, problems);
    if (reader) readers.push([field, reader]);
  }
  return readers;
}

function readFields(readers: FieldReaders, source: unknown, into: Row): Row {
  for (const [field, reader] of readers) {
    const value = reader.read(source);
    if (value !== undefined) into[field] = value;
  }
  return into;
}

/** The rows a collection path selects; undefined when the answer has no list there (projection reports it missing). */
function rowsReader(collection: CompiledJsonPath): (answer: unknown) => unknown[] | undefined {
  // `$.stays[*]` over an answer without `stays` selects nothing, like an empty list: read the list itself instead.
  if (collection.source.endsWith('[*]')) {
    const list = compileJsonPath(collection.source.slice(0, -3));
    if (list.definite) {
      return (answer) => {
        const value = list.read(answer);
        return Array.isArray(value) ? value : undefined;
      };
    }
  }
  return (answer) => {
    const value = collection.read(answer);
    return Array.isArray(value) ? value : undefined;
  };
}

/**
 * Compiles a response mapping: every JSONPath once, the error-row condition, the output field that receives the
 * mapped value. An error row (`onError`) stays a row of the result, marked `$row: "error"`; the other rows are
 * marked `$row: "ok"` when the collection declares error rows.
 */
export function compileResponseMapping(
  mapping: ResponseMapping,
  problems: BindingProblem[],
  at = 'response',
): AnswerMapper {
  const declared = mapping as {
    into?: string;
    collection?: string;
    map?: unknown;
    extract?: unknown;
    onError?: { when?: { path?: unknown; exists?: unknown }; map?: unknown };
  };
  const fields = compileFields(declared.map, `${at}.map`, problems);
  const extract = declared.extract === undefined ? [] : compileFields(declared.extract, `${at}.extract`, problems);
  if (declared.extract !== undefined && declared.into === undefined)
    problems.push({
      path: `${at}.extract`,
      message: 'extract needs `into`: name the output field the mapped value goes to',
    });
  const collection =
    declared.collection === undefined ? undefined : compilePath(declared.collection, `${at}.collection`, problems);
  let mapRow = (row: unknown): Row => readFields(fields, row, {});
  if (declared.onError !== undefined) {
    if (declared.collection === undefined)
      problems.push({ path: `${at}.onError`, message: 'error rows belong to a collection; declare `collection` too' });
    const condition = compilePath(declared.onError.when?.path, `${at}.onError.when.path`, problems);
    const exists = declared.onError.when?.exists !== false;
    const errorFields = compileFields(declared.onError.map, `${at}.onError.map`, problems);
    mapRow = (row) =>
      condition && (condition.read(row) !== undefined) === exists
        ? readFields(errorFields, row, { [ROW_MARKER]: 'error' })
        : readFields(fields, row, { [ROW_MARKER]: 'ok' });
  }
  const rows = collection ? rowsReader(collection) : undefined;
  const mapped: AnswerMapper = rows ? (answer) => rows(answer)?.map(mapRow) : (answer) => mapRow(answer);
  const into = declared.into;
  if (into === undefined) return mapped;
  if (typeof into !== 'string' || into === '__proto__') {
    problems.push({ path: `${at}.into`, message: 'name the output field that receives the mapped value' });
    return mapped;
  }
  return (answer) => {
    const value = mapped(answer);
    return readFields(extract, answer, value === undefined ? {} : { [into]: value });
  };
}
