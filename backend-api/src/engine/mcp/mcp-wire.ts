import type { IncomingHttpHeaders } from 'node:http';
import {
  firstUnstorablePath,
  isStorableText,
  reportablePath,
  STORABLE_TEXT_EXPECTATION,
} from '../resources/schema/index.js';
import {
  HANDSHAKE_DEFAULT_VERSION,
  HANDSHAKE_PROTOCOL_VERSIONS,
  McpWireError,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  RPC_ERRORS,
  STATELESS_PROTOCOL_VERSIONS,
  type JsonRpcMessage,
} from './mcp-protocol.js';

/** Which protocol era a request belongs to, and its revision. */
export interface McpEra {
  stateless: boolean;
  version: string;
  clientCapabilities?: unknown;
}

/** Methods whose name parameter the `Mcp-Name` header mirrors. */
const NAME_PARAMETER: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** Checks the JSON-RPC envelope; batches are refused (this server is stateless and answers one message). */
export function parseMessage(body: unknown): JsonRpcMessage {
  if (Array.isArray(body))
    throw new McpWireError(400, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request: batches are not supported.');
  const message = body as Partial<JsonRpcMessage> | null;
  if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    throw new McpWireError(400, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request');
  }
  const id = message.id;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number')
    throw new McpWireError(400, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request: bad id');
  if (
    message.params !== undefined &&
    (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))
  ) {
    throw new McpWireError(400, RPC_ERRORS.INVALID_PARAMS, 'Invalid params');
  }
  refuseUnstorableEnvelope(message as JsonRpcMessage);
  return message as JsonRpcMessage;
}

/**
 * Refuses an envelope holding text the database cannot store (NUL, a lone surrogate): invalid params when it is
 * in `params`, an invalid request elsewhere. A tool call's arguments are left to the call, which answers with
 * an `input_invalid` tool result like any other argument problem.
 */
function refuseUnstorableEnvelope(message: JsonRpcMessage): void {
  let envelope: unknown = message;
  if (message.method === 'tools/call' && message.params && 'arguments' in message.params) {
    const { arguments: _toolArguments, ...params } = message.params;
    envelope = { ...message, params };
  }
  const path = firstUnstorablePath(envelope);
  if (!path) return;
  const data = {
    reason: 'input_invalid',
    problems: [{ path: reportablePath(path), expected: STORABLE_TEXT_EXPECTATION }],
  };
  if (path[0] === 'params')
    throw new McpWireError(400, RPC_ERRORS.INVALID_PARAMS, 'Invalid params: text that cannot be stored.', data);
  throw new McpWireError(400, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request: text that cannot be stored.', data);
}

/** The id to answer a request with: its own, unless it holds text that cannot be repeated (then null). */
export function replyIdOf(body: unknown): JsonRpcMessage['id'] {
  const id = (body as { id?: unknown } | null)?.id;
  if (typeof id === 'number' || id === null) return id;
  return typeof id === 'string' && isStorableText(id) ? id : null;
}

/** A request is stateless when it carries the per-request revision, or a revision header of that era. */
function isStateless(headers: IncomingHttpHeaders, message: JsonRpcMessage): boolean {
  if (message.params?._meta?.[META_PROTOCOL_VERSION] !== undefined) return true;
  const version = header(headers, 'mcp-protocol-version');
  return (
    version !== undefined &&
    message.method !== 'initialize' &&
    !HANDSHAKE_PROTOCOL_VERSIONS.includes(version) &&
    !/^20(24|25)-/.test(version)
  );
}

/**
 * Classifies a request and runs the revision's admission ladder, before authentication or dispatch:
 * stateless requests must mirror their body in `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`.
 */
export function admitEra(headers: IncomingHttpHeaders, message: JsonRpcMessage): McpEra {
  if (!isStateless(headers, message)) {
    const version = header(headers, 'mcp-protocol-version');
    if (message.method !== 'initialize' && version && !HANDSHAKE_PROTOCOL_VERSIONS.includes(version)) {
      throw new McpWireError(400, RPC_ERRORS.SERVER_ERROR, `Bad Request: unsupported protocol version`);
    }
    return { stateless: false, version: version ?? HANDSHAKE_DEFAULT_VERSION };
  }
  const version = header(headers, 'mcp-protocol-version');
  const meta = message.params?._meta;
  if (!version)
    throw new McpWireError(400, RPC_ERRORS.HEADER_MISMATCH, 'Header mismatch: MCP-Protocol-Version is required.');
  if (!meta || meta[META_PROTOCOL_VERSION] === undefined || meta[META_CLIENT_CAPABILITIES] === undefined) {
    throw new McpWireError(
      400,
      RPC_ERRORS.INVALID_PARAMS,
      `Invalid params: _meta must carry ${META_PROTOCOL_VERSION} and ${META_CLIENT_CAPABILITIES}.`,
    );
  }
  if (meta[META_PROTOCOL_VERSION] !== version)
    throw new McpWireError(
      400,
      RPC_ERRORS.HEADER_MISMATCH,
      'Header mismatch: MCP-Protocol-Version does not match the body.',
    );
  if (!STATELESS_PROTOCOL_VERSIONS.includes(version)) {
    throw new McpWireError(400, RPC_ERRORS.UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version.', {
      supported: [...STATELESS_PROTOCOL_VERSIONS],
      requested: version,
    });
  }
  if (header(headers, 'mcp-method') !== message.method)
    throw new McpWireError(400, RPC_ERRORS.HEADER_MISMATCH, 'Header mismatch: Mcp-Method does not match the body.');
  const nameParameter = NAME_PARAMETER[message.method];
  const name = nameParameter ? message.params?.[nameParameter] : undefined;
  if (typeof name === 'string' && header(headers, 'mcp-name') !== name)
    throw new McpWireError(400, RPC_ERRORS.HEADER_MISMATCH, 'Header mismatch: Mcp-Name does not match the body.');
  return { stateless: true, version, clientCapabilities: meta[META_CLIENT_CAPABILITIES] };
}
