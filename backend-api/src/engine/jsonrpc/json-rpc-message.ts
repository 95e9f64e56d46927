import { JSON_RPC_ERROR_CODES } from '../errors/index.js';
import {
  firstUnstorablePath,
  isStorableText,
  reportablePath,
  STORABLE_TEXT_EXPECTATION,
} from '../resources/schema/index.js';
import type { JsonRpcId, JsonRpcMessage } from './json-rpc-envelope.js';
import { JsonRpcWireError } from './json-rpc-wire.error.js';

/** Options of {@link parseJsonRpcMessage}. */
export interface JsonRpcParseOptions {
  /**
   * A member of `params` the method checks itself, by method (MCP's `tools/call` arguments are answered with a
   * tool result, not a protocol error): left out of the envelope's check of storable text.
   */
  checkedByMethod?: ReadonlyMap<string, string>;
}

/**
 * Checks the JSON-RPC envelope of one message: batches are refused (both servers are stateless and answer one
 * message), the version, method, id and params must have their types, and text the database cannot store is
 * refused (invalid params when it is in `params`, an invalid request elsewhere). Never echoes a submitted value.
 */
export function parseJsonRpcMessage(body: unknown, options: JsonRpcParseOptions = {}): JsonRpcMessage {
  if (Array.isArray(body))
    throw new JsonRpcWireError(
      400,
      JSON_RPC_ERROR_CODES.INVALID_REQUEST,
      'Invalid Request: batches are not supported.',
    );
  const message = body as Partial<JsonRpcMessage> | null;
  if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    throw new JsonRpcWireError(400, JSON_RPC_ERROR_CODES.INVALID_REQUEST, 'Invalid Request');
  }
  const id = message.id;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number')
    throw new JsonRpcWireError(400, JSON_RPC_ERROR_CODES.INVALID_REQUEST, 'Invalid Request: bad id');
  if (
    message.params !== undefined &&
    (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))
  ) {
    throw new JsonRpcWireError(400, JSON_RPC_ERROR_CODES.INVALID_PARAMS, 'Invalid params');
  }
  refuseUnstorableEnvelope(message as JsonRpcMessage, options.checkedByMethod?.get(message.method));
  return message as JsonRpcMessage;
}

function refuseUnstorableEnvelope(message: JsonRpcMessage, checkedByMethod: string | undefined): void {
  let envelope: unknown = message;
  if (checkedByMethod !== undefined && message.params && Object.hasOwn(message.params, checkedByMethod)) {
    const { [checkedByMethod]: _checkedByMethod, ...params } = message.params;
    envelope = { ...message, params };
  }
  const path = firstUnstorablePath(envelope);
  if (!path) return;
  const data = {
    reason: 'input_invalid',
    problems: [{ path: reportablePath(path), expected: STORABLE_TEXT_EXPECTATION }],
  };
  if (path[0] === 'params')
    throw new JsonRpcWireError(
      400,
      JSON_RPC_ERROR_CODES.INVALID_PARAMS,
      'Invalid params: text that cannot be stored.',
      data,
    );
  throw new JsonRpcWireError(
    400,
    JSON_RPC_ERROR_CODES.INVALID_REQUEST,
    'Invalid Request: text that cannot be stored.',
    data,
  );
}

/** The id to answer a request with: its own, unless it holds text that cannot be repeated (then null). */
export function replyIdOf(body: unknown): JsonRpcId {
  const id = (body as { id?: unknown } | null)?.id;
  if (typeof id === 'number' || id === null) return id;
  return typeof id === 'string' && isStorableText(id) ? id : null;
}
