import type { z } from 'zod';
import type { InputProblem } from '../errors/index.js';
import { reportablePath, toInputProblems, toStrictInput, type JsonPathSegment } from '../resources/schema/index.js';

/** What a model's structured output lacks, gets wrong and adds, against a declared resource; paths only, never values. */
export interface ExtractionReport<T> {
  /** True when the output is exactly a record of the resource (nothing missing, invalid or undeclared). */
  ok: boolean;
  /** The parsed record, when `ok`. */
  value?: T;
  /** Required fields the output does not have (`rooms[1].name`). */
  missing: string[];
  /** Fields present with a value the declaration refuses, and what it expects there. */
  invalid: InputProblem[];
  /** Fields the declaration does not name (they would be dropped, never stored). */
  undeclared: string[];
}

/** Anything declaring a record schema: a resource handle from `defineResource`, or a compiled resource. */
export interface DeclaredRecord<S extends z.ZodObject = z.ZodObject> {
  type: string;
  schema: S;
}

const strictSchemas = new WeakMap<z.ZodType, z.ZodType>();

/**
 * Validates a model's structured output against a declared resource's record schema, at every depth, and reports
 * each missing, invalid and undeclared field by its path. The output's values are never repeated.
 *
 * @example
 * const report = extractRecord(hotels, JSON.parse(modelText));
 * if (!report.ok) console.log(report.missing, report.invalid, report.undeclared);
 */
export function extractRecord<S extends z.ZodObject>(
  resource: DeclaredRecord<S>,
  output: unknown,
): ExtractionReport<z.output<S>> {
  let strict = strictSchemas.get(resource.schema);
  if (!strict) strictSchemas.set(resource.schema, (strict = toStrictInput(resource.schema)));
  const parsed = strict.safeParse(output);
  if (parsed.success) return { ok: true, value: parsed.data as z.output<S>, missing: [], invalid: [], undeclared: [] };
  const report: ExtractionReport<z.output<S>> = { ok: false, missing: [], invalid: [], undeclared: [] };
  for (const issue of parsed.error.issues) {
    const path: JsonPathSegment[] = issue.path.map((segment) => (typeof segment === 'symbol' ? '?' : segment));
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) report.undeclared.push(reportablePath([...path, key]));
      continue;
    }
    if (issue.code === 'invalid_type' && valueAt(output, path) === undefined) {
      report.missing.push(reportablePath(path));
      continue;
    }
    report.invalid.push(...toInputProblems([issue], output));
  }
  return report;
}

function valueAt(value: unknown, path: readonly JsonPathSegment[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
