import type { IncomingHttpHeaders } from 'node:http';
import { JsonRpcWireError, parseJsonRpcMessage, type JsonRpcMessage } from '../jsonrpc/index.js';
import {
  HANDSHAKE_DEFAULT_VERSION,
  HANDSHAKE_PROTOCOL_VERSIONS,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  RPC_ERRORS,
  STATELESS_PROTOCOL_VERSIONS,
} from './mcp-protocol.js';

/** Which protocol era a request belongs to, and its revision. */
export interface McpEra {
  stateless: boolean;
  version: string;
  clientCapabilities?: unknown;
}

/** Methods whose name parameter the `Mcp-Name` header mirrors. */
const NAME_PARAMETER: ReadonlyMap<string, string> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
]);

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** Methods whose params carry a member the method checks itself: a tool call's arguments are answered as a tool result. */
const CHECKED_BY_METHOD: ReadonlyMap<string, string> = new Map([['tools/call', 'arguments']]);

/** Checks the JSON-RPC envelope of an MCP message (see {@link parseJsonRpcMessage}). */
export function parseMessage(body: unknown): JsonRpcMessage {
  return parseJsonRpcMessage(body, { checkedByMethod: CHECKED_BY_METHOD });
}

/** A request is stateless when it carries the per-request revision, or a revision header of that era. */
export function isStatelessRequest(headers: IncomingHttpHeaders, message: JsonRpcMessage): boolean {
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
  if (!isStatelessRequest(headers, message)) {
    const version = header(headers, 'mcp-protocol-version');
    if (message.method !== 'initialize' && version && !HANDSHAKE_PROTOCOL_VERSIONS.includes(version)) {
      throw new JsonRpcWireError(400, RPC_ERRORS.SERVER_ERROR, `Bad Request: unsupported protocol version`);
    }
    return { stateless: false, version: version ?? HANDSHAKE_DEFAULT_VERSION };
  }
  const version = header(headers, 'mcp-protocol-version');
  const meta = message.params?._meta;
  if (!version)
    throw new JsonRpcWireError(400, RPC_ERRORS.HEADER_MISMATCH, 'Header mismatch: MCP-Protocol-Version is required.');
  if (!meta || meta[META_PROTOCOL_VERSION] === undefined || meta[META_CLIENT_CAPABILITIES] === undefined) {
    throw new JsonRpcWireError(
      400,
      RPC_ERRORS.INVALID_PARAMS,
      `Invalid params: _meta must carry ${META_PROTOCOL_VERSION} and ${META_CLIENT_CAPABILITIES}.`,
    );
  }
  if (meta[META_PROTOCOL_VERSION] !== version)
    throw new JsonRpcWireError(
      400,
      RPC_ERRORS.HEADER_MISMATCH,
      'Header mismatch: MCP-Protocol-Version does not match the body.',
    );
  if (!STATELESS_PROTOCOL_VERSIONS.includes(version)) {
    throw new JsonRpcWireError(400, RPC_ERRORS.UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version.', {
      supported: [...STATELESS_PROTOCOL_VERSIONS],
      requested: version,
    });
  }
  if (header(headers, 'mcp-method') !== message.method)
    throw new JsonRpcWireError(400, RPC_ERRORS.HEADER_MISMATCH, 'Header mismatch: Mcp-Method does not match the body.');
  const nameParameter = NAME_PARAMETER.get(message.method);
  const name = nameParameter ? message.params?.[nameParameter] : undefined;
  if (typeof name === 'string' && header(headers, 'mcp-name') !== name)
    throw new JsonRpcWireError(400, RPC_ERRORS.HEADER_MISMATCH, 'Header mismatch: Mcp-Name does not match the body.');
  return { stateless: true, version, clientCapabilities: meta[META_CLIENT_CAPABILITIES] };
}
