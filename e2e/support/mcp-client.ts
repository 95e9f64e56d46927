import type { HttpClient, HttpResult } from './http-client.js';
import type { McpCredential } from './mcp-credentials.js';

/** The stateless revision: per-request `_meta`, and headers that mirror the body. */
export const STATELESS_REVISION = '2026-07-28';
/** A handshake-era revision (initialize, then `MCP-Protocol-Version` on each request). */
export const HANDSHAKE_REVISION = '2025-11-25';

/** One JSON-RPC exchange with an MCP endpoint. */
export interface McpExchange {
  http: HttpResult;
  /** The JSON-RPC `result`, when the answer has one (from JSON or from the last SSE message). */
  result?: Record<string, unknown>;
  /** The JSON-RPC `error`, when the answer has one. */
  error?: { code: number; message: string; data?: unknown };
}

/** What one request sends. */
export interface McpRequestOptions {
  credential?: McpCredential;
  /** `2026-07-28` (default) or a handshake revision. */
  revision?: string;
  /** Headers that replace the derived ones (a mismatch probe); `null` removes a derived header. */
  headerOverrides?: Record<string, string | null>;
  /** Replaces the derived `_meta` (stateless requests). */
  meta?: Record<string, unknown>;
  clientCapabilities?: Record<string, unknown>;
}

let nextId = 1;

/** The headers and body of a request as a well-behaved client of `revision` sends it. */
export function mcpRequest(
  method: string,
  params: Record<string, unknown> = {},
  options: McpRequestOptions = {},
): { headers: Record<string, string>; body: Record<string, unknown> } {
  const revision = options.revision ?? STATELESS_REVISION;
  const stateless = revision === STATELESS_REVISION;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': revision,
  };
  const body: Record<string, unknown> = { jsonrpc: '2.0', id: nextId++, method, params: { ...params } };
  if (stateless) {
    headers['mcp-method'] = method;
    if (method === 'tools/call' && typeof params.name === 'string') headers['mcp-name'] = params.name;
    (body.params as Record<string, unknown>)._meta = options.meta ?? {
      'io.modelcontextprotocol/protocolVersion': revision,
      'io.modelcontextprotocol/clientCapabilities': options.clientCapabilities ?? {},
    };
  }
  for (const [name, value] of Object.entries(options.headerOverrides ?? {})) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  return { headers, body };
}

/** The last JSON-RPC message of an SSE body (the response; earlier ones are notifications). */
function lastSseMessage(text: string): unknown {
  const data = text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n'),
    )
    .filter((payload) => payload !== '');
  const last = data.at(-1);
  try {
    return last === undefined ? undefined : (JSON.parse(last) as unknown);
  } catch {
    return undefined;
  }
}

/** Sends one JSON-RPC request to `path` (e.g. `/api/v1/mcp`) and reads its result or error. */
export async function mcpCall(
  client: HttpClient,
  path: string,
  method: string,
  params: Record<string, unknown> = {},
  options: McpRequestOptions = {},
): Promise<McpExchange> {
  const { headers, body } = mcpRequest(method, params, options);
  const http = await client.request('POST', path, {
    rawBody: JSON.stringify(body),
    headers,
    ...(options.credential ? { authorization: options.credential.header() } : {}),
  });
  const envelope = (http.headers.get('content-type') ?? '').includes('text/event-stream')
    ? lastSseMessage(http.text)
    : http.body;
  const message = (typeof envelope === 'object' && envelope !== null ? envelope : {}) as {
    result?: Record<string, unknown>;
    error?: McpExchange['error'];
  };
  return {
    http,
    ...(message.result ? { result: message.result } : {}),
    ...(message.error ? { error: message.error } : {}),
  };
}

/** `tools/call` of `name` with `args`. */
export function callTool(
  client: HttpClient,
  path: string,
  name: string,
  args: Record<string, unknown>,
  options: McpRequestOptions = {},
): Promise<McpExchange> {
  return mcpCall(client, path, 'tools/call', { name, arguments: args }, options);
}

/** The tool names of a `tools/list` answer (empty when it has none). */
export function toolNamesOf(exchange: McpExchange): string[] {
  const tools = exchange.result?.tools;
  return Array.isArray(tools)
    ? tools.map((tool) => (tool as { name?: unknown }).name).filter((name): name is string => typeof name === 'string')
    : [];
}

/** The governed refusal of a tool result: `{ key, error, reason, ... }` from its `dev.wildo/*` `_meta`, if it is one. */
export function refusalOf(
  exchange: McpExchange,
): { key: string; error?: string; reason?: string; problems?: unknown } | undefined {
  const result = exchange.result;
  if (!result || result.isError !== true) return undefined;
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(meta)) {
    if (key.startsWith('dev.wildo/') && typeof value === 'object' && value !== null)
      return { key, ...(value as { error?: string; reason?: string; problems?: unknown }) };
  }
  return { key: '(none)' };
}

/** The structured content of a successful tool result. */
export function structuredOf(exchange: McpExchange): Record<string, unknown> | undefined {
  const result = exchange.result;
  if (!result || result.isError === true) return undefined;
  const structured = result.structuredContent;
  return typeof structured === 'object' && structured !== null ? (structured as Record<string, unknown>) : undefined;
}

/** A one-line description of an exchange for a check's detail: status, JSON-RPC error or refusal reason (never the body). */
export function describeExchange(exchange: McpExchange): string {
  const parts = [`status ${exchange.http.status}`];
  if (exchange.error) parts.push(`rpc error ${exchange.error.code}`);
  const refusal = refusalOf(exchange);
  if (refusal) parts.push(`refused ${refusal.key} ${refusal.reason ?? refusal.error ?? ''}`.trim());
  else if (exchange.result) parts.push(exchange.result.isError === true ? 'isError' : 'result');
  return parts.join(', ');
}
