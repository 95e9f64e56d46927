import type { z as zod } from 'zod';
import { ragSourceRegistry } from './zod-decorators.registry.js';
import { RagSourceOptionsSchema, type RagSourceOptions } from './zod-decorators.schema.js';

declare module 'zod' {
  interface ZodString {
    /** Marks this text field as a RAG source: its value is chunked and indexed for retrieval. */
    ragSource(options?: RagSourceOptions): this;
  }
}

type ZodNamespace = typeof zod;

/**
 * Adds `.ragSource(options?)` to Zod string schemas. Idempotent; call once where schemas are declared.
 *
 * @example
 * initZodDecorators(z);
 * const Doc = z.object({ body: z.string().ragSource({ chunkSize: 1_200 }) });
 */
export function initZodDecorators(z: ZodNamespace): void {
  const proto = z.ZodString.prototype as unknown as Record<string, unknown>;
  if (typeof proto.ragSource === 'function') return;
  proto.ragSource = function ragSource(this: zod.ZodString, options?: RagSourceOptions) {
    ragSourceRegistry.add(this, RagSourceOptionsSchema.parse(options ?? {}));
    return this;
  };
}
