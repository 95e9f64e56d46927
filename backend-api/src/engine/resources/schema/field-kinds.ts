import type { z } from 'zod';
import { ragSourceRegistry } from '@wildo/shared-lib';
import type { StoreFilterField } from '../../persistence/index.js';
import { defOf, shapeOf, unwrapTransparent } from './zod-internals.js';

/** The JSON kind of a scalar field, or null when the field is not a scalar (objects, arrays, unions of kinds). */
export function scalarKindOf(field: z.ZodType): StoreFilterField['kind'] | null {
  const def = defOf(unwrapTransparent(field));
  switch (def.type) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      if (values.every((v) => typeof v === 'string')) return 'string';
      if (values.every((v) => typeof v === 'number')) return 'number';
      return null;
    }
    case 'literal': {
      const values = def.values ?? [];
      if (values.every((v) => typeof v === 'string')) return 'string';
      if (values.every((v) => typeof v === 'number')) return 'number';
      if (values.every((v) => typeof v === 'boolean')) return 'boolean';
      return null;
    }
    default:
      return null;
  }
}

/** Whether a field accepts JSON null. */
export function isNullableField(field: z.ZodType): boolean {
  return field.safeParse(null).success;
}

/** Top-level string fields marked `.ragSource()` (z_file fields hold file references, not text, and are excluded). */
export function ragSourceTextFields(schema: z.ZodObject): string[] {
  const fields: string[] = [];
  for (const [key, field] of Object.entries(shapeOf(schema))) {
    const inner = unwrapTransparent(field);
    if (defOf(inner).type === 'string' && ragSourceRegistry.get(inner)) fields.push(key);
  }
  return fields;
}
