import { z } from 'zod';
import { fileFieldRegistry, ragSourceRegistry } from './zod-decorators.registry.js';
import { FileFieldOptionsSchema, RagSourceOptionsSchema, type FileFieldOptionsInput } from './zod-decorators.schema.js';

const fileId = z.string().min(1).max(128);
const updatedAt = z.iso.datetime({ offset: true });

/** Stored value of a single-file field. */
export const SingleFileValueSchema = z.strictObject({ fileId, updatedAt });
/** Stored value of a multiple-file field. */
export const MultipleFileValueSchema = z.strictObject({ fileIds: z.array(fileId).max(100), updatedAt });

export type SingleFileValue = z.infer<typeof SingleFileValueSchema>;
export type MultipleFileValue = z.infer<typeof MultipleFileValueSchema>;

/** Overloads keep the stored value's type precise: `{ fileId }` or `{ fileIds }`. */
export function z_file(options: FileFieldOptionsInput & { multiple: true }): typeof MultipleFileValueSchema;
export function z_file(options: FileFieldOptionsInput & { multiple?: false }): typeof SingleFileValueSchema;
export function z_file(options: FileFieldOptionsInput): typeof SingleFileValueSchema | typeof MultipleFileValueSchema;
/**
 * A file field: the record stores `{ fileId, updatedAt }` (or `{ fileIds, updatedAt }` when `multiple`).
 * The options (accepted MIME types, text extraction, RAG indexing) are kept in {@link fileFieldRegistry}.
 *
 * @example
 * const Doc = z.object({ document: z_file({ allowedMimeTypes: ['application/pdf'], ragSource: {} }).optional() });
 */
export function z_file(options: FileFieldOptionsInput) {
  const parsed = FileFieldOptionsSchema.parse(options);
  // A fresh instance per field, so two fields never share one registry entry.
  const schema = (parsed.multiple ? MultipleFileValueSchema : SingleFileValueSchema).clone();
  fileFieldRegistry.add(schema, parsed);
  if (parsed.ragSource) ragSourceRegistry.add(schema, RagSourceOptionsSchema.parse(parsed.ragSource));
  return schema;
}
