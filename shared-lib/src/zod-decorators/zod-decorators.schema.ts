import { z } from 'zod';
import { RAGChunkingStrategy } from './rag-chunking-strategy.js';

/** Defaults applied to every RAG source field that leaves an option out. */
export const RAG_SOURCE_DEFAULTS = {
  chunkingStrategy: RAGChunkingStrategy.RECURSIVE,
  chunkSize: 1_000,
  chunkOverlap: 150,
} as const;

/** Options of `.ragSource()` and of `z_file({ ragSource })`; every option has a default. */
export const RagSourceOptionsSchema = z
  .strictObject({
    chunkingStrategy: z.enum(RAGChunkingStrategy).default(RAG_SOURCE_DEFAULTS.chunkingStrategy),
    chunkSize: z.number().int().min(100).max(20_000).default(RAG_SOURCE_DEFAULTS.chunkSize),
    chunkOverlap: z.number().int().min(0).max(5_000).default(RAG_SOURCE_DEFAULTS.chunkOverlap),
  })
  .refine((o) => o.chunkOverlap < o.chunkSize, {
    message: 'chunkOverlap must be smaller than chunkSize',
    path: ['chunkOverlap'],
  });
/** What an application writes: any subset of the options. */
export type RagSourceOptions = z.input<typeof RagSourceOptionsSchema>;
/** What the registry holds: every option resolved. */
export type ResolvedRagSourceOptions = z.output<typeof RagSourceOptionsSchema>;

/** Largest file a `z_file` field accepts when it names no `maxSizeBytes` (25 MiB). */
export const FILE_FIELD_DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
/** The most a `z_file` field's `maxSizeBytes` may name (1 GiB). */
export const FILE_FIELD_MAX_BYTES_CEILING = 1024 * 1024 * 1024;

/** Options of {@link z_file}. */
export const FileFieldOptionsSchema = z.strictObject({
  allowedMimeTypes: z.array(z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, 'a MIME type such as text/plain')).min(1),
  multiple: z.boolean().default(false),
  /** Largest accepted upload, checked when a grant is minted and again on upload. */
  maxSizeBytes: z.number().int().min(1).max(FILE_FIELD_MAX_BYTES_CEILING).default(FILE_FIELD_DEFAULT_MAX_BYTES),
  textExtraction: z.strictObject({ ocr: z.boolean().default(false) }).optional(),
  ragSource: RagSourceOptionsSchema.optional(),
  /** Generated documents are written by the engine; no user upload tool is derived for them. */
  generated: z.boolean().optional(),
});
export type FileFieldOptionsInput = z.input<typeof FileFieldOptionsSchema>;
export type FileFieldOptions = z.output<typeof FileFieldOptionsSchema>;
