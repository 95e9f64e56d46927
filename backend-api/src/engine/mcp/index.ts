// The MCP resource server: the tool catalogue, tool calls, upload-grant tools, the exposure report.
export type { McpApplication, McpModule } from './mcp-module.js';
export { McpToolCatalogue } from './tool-catalogue.service.js';
export { UploadGrantMcpTools, uploadGrantToolName, type UploadGrantMinting } from './upload-grant-tools.js';
export { createMcpRouter } from './mcp.routes.js';
export { McpToolCallService } from './tool-call.service.js';
export { McpClientReplies, McpSessionCodec, type McpClientChannel } from './mcp-client-requests.js';
export { RequestStateCodec, REQUEST_STATE_TTL_MS } from './mcp-request-state.js';
export { MCP_SUPPORTED_PROTOCOL_VERSIONS } from './mcp-protocol.js';
export {
  McpClientCapabilityRequired,
  type McpContentBlock,
  type McpCustomTool,
  type McpCustomToolContext,
  type McpToolAnnotations,
  type McpToolDescriptor,
  type McpToolResult,
} from './mcp-tools.types.js';
export { describeExposure, type ExposureReport } from './exposure-report.js';
