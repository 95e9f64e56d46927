import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { defOf, unwrapTransparent } from '../engine/resources/schema/index.js';

/** Where a text goes inside an input: object keys and array indexes. */
export type TextPath = readonly (string | number)[];

const MAX_DEPTH = 4;

/**
 * The path of every text field a JSON input schema declares, at every depth (an array contributes its first
 * element). Enums and literals are not text fields: they accept only their declared values.
 */
export function textPathsOf(schema: z.ZodType, prefix: TextPath = [], depth = 0): TextPath[] {
  const def = defOf(unwrapTransparent(schema));
  if (def.type === 'string') return [prefix];
  if (depth >= MAX_DEPTH) return [];
  if (def.type === 'object')
    return Object.entries(def.shape ?? {}).flatMap(([key, child]) => textPathsOf(child, [...prefix, key], depth + 1));
  if (def.type === 'array' && def.element) return textPathsOf(def.element, [...prefix, 0], depth + 1);
  return [];
}

/** A string the schema's format and length checks accept. */
function validString(schema: z.ZodType): string {
  const def = defOf(schema);
  const checks = ((def.checks ?? []) as { _zod: { def: { check: string; minimum?: number; format?: string } } }[]).map(
    (c) => c._zod.def,
  );
  const format = def.format ?? checks.find((c) => c.check === 'string_format')?.format;
  if (format === 'datetime') return new Date(0).toISOString();
  if (format === 'email') return `someone-${randomUUID().slice(0, 8)}@example.test`;
  if (format === 'url') return 'https://example.test/callback';
  if (format === 'uuid' || format === 'guid') return randomUUID();
  const min = Math.max(1, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum ?? 0));
  return `text ${'x'.repeat(min)}`;
}

/**
 * The smallest value a (JSON-shaped) schema accepts: required fields only, plus every field on `along` (so the
 * value has a place at that path); strings satisfy their format and length, numbers their lower bound, enums
 * take their first value, arrays hold one element when `along` goes through them, else none.
 */
export function minimalValueFor(schema: z.ZodType, along: TextPath = []): unknown {
  const inner = unwrapTransparent(schema);
  const def = defOf(inner);
  const [head, ...rest] = along;
  switch (def.type) {
    case 'string':
      return validString(inner);
    case 'number':
      return Math.max(
        0,
        ...((def.checks ?? []) as { _zod: { def: { check: string; value?: number } } }[])
          .filter((c) => c._zod.def.check === 'greater_than')
          .map((c) => c._zod.def.value ?? 0),
      );
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'array':
      return head === 0 && def.element ? [minimalValueFor(def.element, rest)] : [];
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        if (key === head) value[key] = minimalValueFor(child, rest);
        else if (!child.safeParse(undefined).success) value[key] = minimalValueFor(child);
      }
      return value;
    }
    default:
      return null;
  }
}

/** A copy of `value` with `text` at `path` (containers on the path are copied, the rest shared). */
export function withTextAt(value: unknown, path: TextPath, text: string): unknown {
  if (path.length === 0) return text;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) }) as Record<
    string | number,
    unknown
  >;
  copy[head as string | number] = withTextAt(copy[head as string | number], rest, text);
  return copy;
}

/** The value at `path`, or undefined. */
export function valueAtPath(value: unknown, path: TextPath): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
