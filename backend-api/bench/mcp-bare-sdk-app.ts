import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import express, { type Express } from 'express';
import type { SqlDatabase } from '../src/engine/persistence/index.js';
import { TODO_BY_ID } from './bare-app.js';
import { mountBareJsonToolCall } from './mcp-bare-json-app.js';
import { MCP_BENCH_TOOL } from './mcp-bench-protocol.js';

/** The tool as the bare server lists it. */
const TODO_READ_TOOL = {
  name: MCP_BENCH_TOOL,
  description: 'Fetch a single todo by its id.',
  inputSchema: {
    type: 'object' as const,
    properties: { todoId: { type: 'string' }, organizationId: { type: 'string' } },
    required: ['todoId', 'organizationId'],
    additionalProperties: false,
  },
};

/**
 * The baseline: a minimal stateless MCP server built directly on the official SDK (`@modelcontextprotocol/server`
 * v2 low-level `Server` per request through `createMcpHandler`, JSON responses, served by Express 5 through
 * `@modelcontextprotocol/node`), with one tool doing the framework's SQL read of one todo on the same database
 * and returning it as structured content plus its text rendering, like ours. No authentication, authorization,
 * rate limiting, input contract or projection: the work the ratio prices. The same app also serves the plain
 * Express JSON anchor at `jsonPath` (see `mcp-bare-json-app.ts`).
 */
export function createBareSdkMcpApp(database: SqlDatabase, path: string, jsonPath: string): Express {
  const factory = () => {
    const server = new Server(
      { name: 'bare-sdk-bench', version: '1.0.0' },
      { capabilities: { tools: { listChanged: false } } },
    );
    server.setRequestHandler('tools/list', async () => ({ tools: [TODO_READ_TOOL] }));
    server.setRequestHandler('tools/call', async (request) => {
      const args = (request.params.arguments ?? {}) as { todoId?: unknown; organizationId?: unknown };
      if (request.params.name !== MCP_BENCH_TOOL)
        return { isError: true, content: [{ type: 'text' as const, text: `Unknown tool: ${request.params.name}` }] };
      const { rows } = await database.query(TODO_BY_ID, [String(args.todoId), String(args.organizationId)], {
        prepare: true,
      });
      const row = rows[0] as Record<string, unknown> | undefined;
      if (!row) return { isError: true, content: [{ type: 'text' as const, text: 'The record was not found.' }] };
      return { content: [{ type: 'text' as const, text: JSON.stringify(row, null, 2) }], structuredContent: row };
    });
    return server;
  };
  const node = toNodeHandler(createMcpHandler(factory, { responseMode: 'json', legacy: 'reject' }));
  const app = express();
  app.disable('etag');
  app.disable('x-powered-by');
  app.use(express.json({ limit: 1024 * 1024 }));
  app.post(path, (req, res) => void node(req, res, req.body));
  mountBareJsonToolCall(app, database, jsonPath);
  return app;
}
