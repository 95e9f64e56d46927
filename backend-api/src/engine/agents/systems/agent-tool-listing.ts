import { z } from 'zod';
import type { FlowsActorsApplication } from './flows-actors-module.js';
import { servicePathOf } from '../../resources/index.js';
import { buildTurnTools, type FunctionTool } from '../tools/index.js';

/** One tool an agent's model is offered, as the model sees it. */
export interface AgentToolListing {
  /** The agent's ref and the module declaring it. */
  agent: string;
  module: string;
  /** The name the model sees and calls (a function ref with every character outside `[A-Za-z0-9_-]` made `_`). */
  tool: string;
  /** The name people see: the function ref, or `mcp:<server>/*` for a server's tools (discovered at run time). */
  functionRef: string;
  /** `todos.update` (or `todos.update#variant`) when the tool dispatches a resource operation. */
  operation?: string;
  /** Declared on the tool; a system access entry with `requiresApproval` also gates every call. */
  requiresHumanApproval: boolean;
  readOnly: boolean;
  /** The JSON Schema of the arguments the model sends (strict: unknown fields are refused); absent for server tools. */
  inputSchema?: Record<string, unknown>;
}

/**
 * The names a model sees for these tools, in order, computed by the runtime's own tool set (so a clash gets the
 * same `_2` suffix it would get in a turn).
 *
 * @example
 * modelToolNames([resourceReadTool('todos')]); // ['resource_todos_read']
 */
export function modelToolNames(tools: readonly FunctionTool[]): string[] {
  return buildTurnTools({ functionTools: tools, externalSessions: [], gatedServers: new Set(), gateAll: false })
    .specs()
    .map((spec) => spec.name);
}

/** The name a model sees for a tool with this function ref (`resource.todos.update` → `resource_todos_update`). */
export function modelToolName(functionRef: string): string {
  const [name] = modelToolNames([
    { functionRef, description: functionRef, inputSchema: z.object({}), execute: async () => null },
  ]);
  return name ?? functionRef;
}

/**
 * Every tool each agent of the application is offered, in the order its declaration lists them, named as the
 * runtime names them: its function tools (looked up by ref across modules; unknown refs are left out, start-up
 * refuses them), then one entry per external MCP server it names (those tools are discovered at run time).
 */
export function listAgentTools(application: FlowsActorsApplication): AgentToolListing[] {
  const tools = new Map<string, FunctionTool>();
  for (const module of application.modules)
    for (const tool of module.flowsActors?.functionTools ?? [])
      if (!tools.has(tool.functionRef)) tools.set(tool.functionRef, tool);
  const listings: AgentToolListing[] = [];
  for (const module of application.modules) {
    for (const agent of module.flowsActors?.agents ?? []) {
      const offered = (agent.capabilities?.tools?.functionRefs ?? []).flatMap((ref) => tools.get(ref) ?? []);
      const turnTools = buildTurnTools({
        functionTools: offered,
        externalSessions: [],
        gatedServers: new Set(),
        gateAll: false,
      });
      offered.forEach((tool) => {
        const turnTool = turnTools.byFunctionRef(tool.functionRef);
        if (!turnTool) return;
        const target = tool.resourceOperation;
        listings.push({
          agent: agent.ref,
          module: module.name,
          tool: turnTool.providerName,
          functionRef: tool.functionRef,
          ...(target ? { operation: servicePathOf(target.resourceType, target.operation, target.variantKey) } : {}),
          requiresHumanApproval: turnTool.requiresHumanApproval,
          readOnly: turnTool.readOnly,
          inputSchema: turnTool.inputSchema,
        });
      });
      for (const server of agent.capabilities?.tools?.mcpRefs ?? []) {
        // Which of them are gated is the server's configuration, known at run time like the tools themselves.
        listings.push({
          agent: agent.ref,
          module: module.name,
          tool: `mcp_${server.replace(/[^A-Za-z0-9_-]/g, '_')}_*`,
          functionRef: `mcp:${server}/*`,
          requiresHumanApproval: false,
          readOnly: false,
        });
      }
    }
  }
  return listings;
}
