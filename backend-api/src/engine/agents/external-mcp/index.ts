// Tools of external MCP servers offered to agents.
export { ExternalMcpConnector, type ExternalMcpSession } from './external-mcp.service.js';
export type { ExternalMcpCallResult, ExternalMcpServerDefinition, ExternalMcpTool } from './external-mcp.types.js';
