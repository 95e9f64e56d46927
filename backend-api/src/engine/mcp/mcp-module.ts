import type { FlowsActorsApplication, FlowsActorsModule } from '../agents/systems/index.js';
import type { McpCustomTool } from './mcp-tools.types.js';

/** A module as the MCP server reads it: everything below, plus the tools it contributes directly. */
export interface McpModule extends FlowsActorsModule {
  /** MCP tools the module contributes directly (not derived from resource operations). */
  mcpTools?: readonly McpCustomTool[];
}

/** An application as the MCP server (and its exposure report) reads it. */
export interface McpApplication extends FlowsActorsApplication {
  modules: readonly McpModule[];
}
