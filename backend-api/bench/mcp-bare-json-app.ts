import type { Express } from 'express';
import type { SqlDatabase } from '../src/engine/persistence/index.js';
import { TODO_BY_ID } from './bare-app.js';

interface ToolCallBody {
  id?: unknown;
  params?: { arguments?: { todoId?: unknown; organizationId?: unknown } };
}

/**
 * The second anchor: the same `tools/call` request answered by a plain Express JSON handler (no MCP SDK, no
 * protocol checks): parse the body, run the same SQL read, answer the JSON-RPC result ours answers. The ratio
 * against it prices everything the framework adds, the protocol layer included.
 */
export function mountBareJsonToolCall(app: Express, database: SqlDatabase, path: string): void {
  app.post(path, async (req, res) => {
    const body = req.body as ToolCallBody;
    const args = body.params?.arguments ?? {};
    const { rows } = await database.query(TODO_BY_ID, [String(args.todoId), String(args.organizationId)], {
      prepare: true,
    });
    const row = rows[0] as Record<string, unknown> | undefined;
    const result = row
      ? { content: [{ type: 'text', text: JSON.stringify(row, null, 2) }], structuredContent: row }
      : { isError: true, content: [{ type: 'text', text: 'The record was not found.' }] };
    res.json({ jsonrpc: '2.0', id: body.id ?? null, result });
  });
}
