// Embedded use: the application's declarations without a server. Tool definitions in each model vendor's format,
// execute() through the dispatch path MCP uses, and an extractor for a model's structured output.
export {
  createEmbeddedWildo,
  embedBackend,
  EmbeddedCallError,
  embeddedPrincipal,
  type EmbeddedToolResult,
  type EmbeddedWildo,
  type EmbeddedWildoOptions,
  type ExecuteOptions,
} from './embedded-wildo.js';
export { extractRecord, type DeclaredRecord, type ExtractionReport } from './extractor.js';
export {
  toolDefinitions,
  vendorNameOf,
  VENDOR_FORMATS,
  type EmbeddedTool,
  type VendorFormat,
  type VendorToolDefinitions,
} from './vendor-tools.js';
