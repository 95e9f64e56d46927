import { toJsonRpcError, type FrameworkError } from '../errors/index.js';

/** A JSON-RPC 2.0 request (with an id) or notification (without), as received. */
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
}

/** The id a reply carries (`null` when the request's could not be read). */
export type JsonRpcId = JsonRpcMessage['id'];

/** A JSON-RPC error envelope. */
export function rpcError(id: JsonRpcId, error: { code: number; message: string; data?: unknown }) {
  return {
    jsonrpc: '2.0' as const,
    id: id ?? null,
    error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) },
  };
}

/** A JSON-RPC result envelope. */
export function rpcResult(id: JsonRpcId, result: unknown) {
  return { jsonrpc: '2.0' as const, id: id ?? null, result };
}

/** A framework error as a JSON-RPC error envelope, by the framework's one code table. */
export function rpcFrameworkError(id: JsonRpcId, error: FrameworkError) {
  return rpcError(id, toJsonRpcError(error));
}
