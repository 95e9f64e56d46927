import { z } from 'zod';
import { cloneWithDef, defOf, shapeOf } from './zod-internals.js';

/**
 * Rebuilds a schema so that every object in it refuses undeclared keys, at every depth. Checks,
 * defaults and metadata are kept; recursive (lazy) schemas are rebuilt once.
 */
export function toStrictInput(schema: z.ZodType): z.ZodType {
  return strictify(schema, new Map());
}

function strictify(schema: z.ZodType, memo: Map<z.ZodType, z.ZodType>): z.ZodType {
  const cached = memo.get(schema);
  if (cached) return cached;
  const def = defOf(schema);
  let result: z.ZodType;
  switch (def.type) {
    case 'object': {
      const shape: Record<string, z.ZodType> = {};
      for (const [key, child] of Object.entries(def.shape ?? {})) shape[key] = strictify(child, memo);
      result = cloneWithDef(schema, { shape, catchall: z.never() });
      break;
    }
    case 'array':
      result = def.element ? cloneWithDef(schema, { element: strictify(def.element, memo) }) : schema;
      break;
    case 'record':
      result = def.valueType ? cloneWithDef(schema, { valueType: strictify(def.valueType, memo) }) : schema;
      break;
    case 'tuple':
      result = cloneWithDef(schema, {
        items: (def.items ?? []).map((item) => strictify(item, memo)),
        rest: def.rest ? strictify(def.rest, memo) : null,
      });
      break;
    case 'union':
      result = cloneWithDef(schema, { options: (def.options ?? []).map((option) => strictify(option, memo)) });
      break;
    case 'intersection':
      // Each side of an intersection sees only its own keys; strict sides would refuse each other's fields.
      result = schema;
      break;
    case 'lazy': {
      const getter = def.getter;
      result = getter ? z.lazy(() => strictify(getter(), memo)) : schema;
      break;
    }
    default:
      result = def.innerType ? cloneWithDef(schema, { innerType: strictify(def.innerType, memo) }) : schema;
  }
  memo.set(schema, result);
  return result;
}

/** The CREATE input contract: the declared fields minus server-written ones, strict at every depth. */
export function buildCreateInputSchema(resourceSchema: z.ZodObject, readOnlyFields: readonly string[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(shapeOf(resourceSchema))) {
    if (!readOnlyFields.includes(key)) shape[key] = field;
  }
  return toStrictInput(z.object(shape)) as z.ZodObject;
}

/**
 * The UPDATE (patch) input contract: every writable top-level field optional and without its default
 * (a default would silently reset a field the caller did not send); nested values are replaced whole,
 * so they keep their full declared contract. An empty patch is refused.
 */
export function buildPatchInputSchema(resourceSchema: z.ZodObject, readOnlyFields: readonly string[]): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(shapeOf(resourceSchema))) {
    if (readOnlyFields.includes(key)) continue;
    shape[key] = z.optional(withoutTopDefault(field));
  }
  return (toStrictInput(z.object(shape)) as z.ZodObject).refine((patch) => Object.keys(patch).length > 0, {
    message: 'at least one field to change',
  });
}

function withoutTopDefault(field: z.ZodType): z.ZodType {
  let current = field;
  for (;;) {
    const def = defOf(current);
    if ((def.type === 'default' || def.type === 'prefault' || def.type === 'optional') && def.innerType) {
      current = def.innerType;
      continue;
    }
    return current;
  }
}
