export {
  governedOutputRegistry,
  z_html,
  z_image,
  z_webPage,
  type DeclaredOrigins,
  type GovernedOutput,
  type HtmlOutputOptions,
  type UrlOutputOptions,
} from './governed-outputs.js';
export { initZodDecorators } from './init-zod-decorators.js';
export { RAGChunkingStrategy } from './rag-chunking-strategy.js';
export {
  MultipleFileValueSchema,
  SingleFileValueSchema,
  z_file,
  type MultipleFileValue,
  type SingleFileValue,
} from './z-file.js';
export { fileFieldRegistry, ragSourceRegistry } from './zod-decorators.registry.js';
export {
  FILE_FIELD_DEFAULT_MAX_BYTES,
  FILE_FIELD_MAX_BYTES_CEILING,
  FileFieldOptionsSchema,
  RAG_SOURCE_DEFAULTS,
  RagSourceOptionsSchema,
  type FileFieldOptions,
  type FileFieldOptionsInput,
  type RagSourceOptions,
  type ResolvedRagSourceOptions,
} from './zod-decorators.schema.js';
