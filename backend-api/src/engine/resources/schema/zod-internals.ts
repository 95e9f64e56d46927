import { z } from 'zod';

/**
 * The one place that reads Zod v4 internals (`_zod.def`). Everything else in the engine asks these
 * helpers, so a Zod upgrade that moves a field is fixed here only.
 */
export interface ZodDefView {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  left?: z.ZodType;
  right?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  getter?: () => z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  format?: string;
  in?: z.ZodType;
  out?: z.ZodType;
  checks?: unknown[];
}

/** The definition of a schema, typed loosely enough to walk any kind. */
export function defOf(schema: z.ZodType): ZodDefView {
  return (schema as unknown as { _zod: { def: ZodDefView } })._zod.def;
}

/** Wrapper kinds that hold one inner schema and do not change the JSON shape. */
export const TRANSPARENT_WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
]);

/** Strips transparent wrappers (optional, nullable, default, ...) and returns the schema underneath. */
export function unwrapTransparent(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (!TRANSPARENT_WRAPPERS.has(def.type) || !def.innerType) return current;
    current = def.innerType;
  }
}

/** Whether a field may be left out of an input object (optional, or with a default). */
export function isOmittable(schema: z.ZodType): boolean {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') return true;
    if (!TRANSPARENT_WRAPPERS.has(def.type) || !def.innerType) return false;
    current = def.innerType;
  }
}

/** Clones a schema with a changed definition, keeping registry metadata (descriptions, ragSource) via the parent link. */
export function cloneWithDef(schema: z.ZodType, patch: Partial<ZodDefView>): z.ZodType {
  const internals = (schema as unknown as { _zod: { def: object } })._zod;
  return (schema as unknown as { clone(def: object, params: { parent: boolean }): z.ZodType }).clone(
    { ...internals.def, ...patch },
    { parent: true },
  );
}

/** The shape of an object schema. */
export function shapeOf(schema: z.ZodObject): Record<string, z.ZodType> {
  return schema.shape as Record<string, z.ZodType>;
}

/**
 * The declared keys of the object a path leads to inside a schema (through transparent wrappers, arrays,
 * records, tuples and lazy schemas), or undefined when the path does not lead to one object schema.
 */
export function declaredKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let current: z.ZodType | undefined = schema;
  for (let i = 0; current && i <= path.length; i++) {
    let def = defOf(current);
    while ((TRANSPARENT_WRAPPERS.has(def.type) && def.innerType) || (def.type === 'lazy' && def.getter)) {
      current = def.type === 'lazy' ? (def.getter as () => z.ZodType)() : (def.innerType as z.ZodType);
      def = defOf(current);
    }
    if (i === path.length) return def.type === 'object' ? Object.keys(def.shape ?? {}) : undefined;
    const segment = path[i];
    if (def.type === 'object') current = typeof segment === 'string' ? def.shape?.[segment] : undefined;
    else if (def.type === 'array') current = typeof segment === 'number' ? def.element : undefined;
    else if (def.type === 'record') current = def.valueType;
    else if (def.type === 'tuple')
      current = typeof segment === 'number' ? (def.items?.[segment] ?? def.rest ?? undefined) : undefined;
    else current = undefined;
  }
  return undefined;
}
