import { governedOutputRegistry } from '@wildo/shared-lib';
import fc from 'fast-check';
import type { z } from 'zod';
import { defOf } from '../engine/resources/schema/index.js';

interface CheckDef {
  check: string;
  value?: number;
  minimum?: number;
  maximum?: number;
  inclusive?: boolean;
  format?: string;
}

function checksOf(schema: z.ZodType): CheckDef[] {
  return ((defOf(schema).checks ?? []) as { _zod: { def: CheckDef } }[]).map((c) => c._zod.def);
}

/** Values a governed output passes on: URLs on its declared origins, a clean HTML fragment. */
function governedArbitrary(schema: z.ZodType): fc.Arbitrary<string> | undefined {
  const governed = governedOutputRegistry.get(schema);
  if (!governed) return undefined;
  if (governed.kind === 'html')
    return fc.constantFrom('<p>Quiet rooms.</p>', '<p><b>By the river</b>, near the old town.</p>');
  if (governed.origins.length === 0) return undefined;
  return fc
    .tuple(fc.constantFrom(...governed.origins), fc.stringMatching(/^[a-z0-9]{1,8}$/))
    .map(([origin, page]) => `${origin}/${page}`);
}

function stringArbitrary(schema: z.ZodType): fc.Arbitrary<string> {
  const governed = governedArbitrary(schema);
  if (governed) return governed;
  const def = defOf(schema);
  if (def.format === 'datetime')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  let minLength = 0;
  let maxLength = 40;
  for (const check of checksOf(schema)) {
    if (check.check === 'min_length' && check.minimum !== undefined) minLength = check.minimum;
    if (check.check === 'max_length' && check.maximum !== undefined) maxLength = Math.min(check.maximum, 40);
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
}

function numberArbitrary(schema: z.ZodType): fc.Arbitrary<number> {
  let min = -1_000_000;
  let max = 1_000_000;
  let integer = false;
  for (const check of checksOf(schema)) {
    if (check.check === 'greater_than' && check.value !== undefined)
      min = check.inclusive ? check.value : check.value + 1;
    if (check.check === 'less_than' && check.value !== undefined) max = check.inclusive ? check.value : check.value - 1;
    if (check.check === 'number_format') integer = true;
  }
  return integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/**
 * A fast-check arbitrary of values that satisfy a (JSON-shaped) Zod schema: objects, arrays, records,
 * unions, enums, literals, scalars with their length and range checks, optional/nullable/default wrappers.
 */
export function arbitraryFor(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'object': {
      const required: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(def.shape ?? {})) required[key] = arbitraryFor(child, depth + 1);
      const optionalKeys = Object.entries(def.shape ?? {})
        .filter(([, child]) => child.safeParse(undefined).success)
        .map(([key]) => key);
      return fc.record(required, { requiredKeys: Object.keys(required).filter((k) => !optionalKeys.includes(k)) });
    }
    case 'array':
      return fc.array(arbitraryFor(def.element as z.ZodType, depth + 1), { maxLength: depth > 3 ? 1 : 4 });
    case 'record':
      return fc.dictionary(
        fc.string({ minLength: 1, maxLength: 8 }),
        arbitraryFor(def.valueType as z.ZodType, depth + 1),
        { maxKeys: 3 },
      );
    case 'tuple':
      return fc.tuple(...(def.items ?? []).map((item) => arbitraryFor(item, depth + 1)));
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => arbitraryFor(option, depth + 1)));
    case 'optional':
      return fc.option(arbitraryFor(def.innerType as z.ZodType, depth), { nil: undefined });
    case 'nullable':
      return fc.option(arbitraryFor(def.innerType as z.ZodType, depth), { nil: null });
    default:
      if (def.innerType) return arbitraryFor(def.innerType, depth);
      throw new Error(`arbitraryFor: unsupported schema kind "${def.type}"`);
  }
}

/** Every plain object inside a value (the value itself included), depth first. */
export function plainObjectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) plainObjectsIn(item, out);
  else if (typeof value === 'object' && value !== null) {
    out.push(value as Record<string, unknown>);
    for (const child of Object.values(value)) plainObjectsIn(child, out);
  }
  return out;
}
