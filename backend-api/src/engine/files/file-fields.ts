import { fileFieldRegistry, type FileFieldOptions } from '@wildo/shared-lib';
import type { z } from 'zod';
import { shapeOf, unwrapTransparent } from '../resources/schema/index.js';

/** A top-level `z_file` field of a resource: its name and declared options. */
export interface FileField {
  name: string;
  options: FileFieldOptions;
}

/** The `z_file` fields at the top level of a resource's schema (`.optional()` and `.nullable()` see through). */
export function fileFieldsOf(schema: z.ZodObject): FileField[] {
  const fields: FileField[] = [];
  for (const [name, field] of Object.entries(shapeOf(schema))) {
    const options = fileFieldRegistry.get(unwrapTransparent(field));
    if (options) fields.push({ name, options });
  }
  return fields;
}

/** Whether a caller may upload to the field (generated documents are written by the engine only). */
export function isUserUploadable(field: FileField): boolean {
  return field.options.generated !== true;
}

/** The file ids a field's value names: `{ fileId }` or `{ fileIds }`; none for an absent or null value. */
export function fileIdsIn(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  const { fileId, fileIds } = value as { fileId?: unknown; fileIds?: unknown };
  if (typeof fileId === 'string') return [fileId];
  if (Array.isArray(fileIds)) return fileIds.filter((id): id is string => typeof id === 'string');
  return [];
}
