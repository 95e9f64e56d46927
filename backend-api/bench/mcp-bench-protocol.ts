import type { LoadRequest } from './bench-load.js';

/**
 * What `mcp.bench.ts` and its server child (`mcp-bench-server.ts`) say to each other. The child speaks the
 * protocol of `bench-protocol.ts` (stop, CPU usage, failed); only its ready message differs.
 */

/** The revision both servers are measured at: the stateless 2026-07-28 revision (no handshake, per-request `_meta`). */
export const MCP_BENCH_REVISION = '2026-07-28';

/** The tool both servers serve: one todo by id, read with the same SQL on the same database. */
export const MCP_BENCH_TOOL = 'todos__read';

/** Sent once the child listens on both ports and has seeded its data. */
export interface McpBenchServerReady {
  type: 'ready';
  /** The framework's MCP endpoint, e.g. `http://127.0.0.1:41234/api/v1/mcp`. */
  frameworkUrl: string;
  /** The bare SDK server's endpoint (same path). */
  bareUrl: string;
  /** The plain Express JSON handler answering the same request, on the bare server's port. */
  bareJsonUrl: string;
  todoId: string;
  organizationId: string;
  /** `Authorization` values: a person's delegated token for the endpoint (`Bearer ...`) and an organization API key. */
  credentials: { token: string; apiKey: string };
}

/** The same JSON-RPC request to every server (credential included; the bare ones ignore it). */
export function toolCall(label: string, url: string, ready: McpBenchServerReady, authorization: string): LoadRequest {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: MCP_BENCH_TOOL,
      arguments: { todoId: ready.todoId, organizationId: ready.organizationId },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MCP_BENCH_REVISION,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  return {
    label,
    url,
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      authorization,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MCP_BENCH_REVISION,
      'mcp-method': 'tools/call',
      'mcp-name': MCP_BENCH_TOOL,
    },
  };
}
