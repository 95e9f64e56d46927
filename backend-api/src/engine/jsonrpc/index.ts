// JSON-RPC 2.0 as both resource servers speak it (MCP and A2A): envelopes, parsing one message, method tables.
export { rpcError, rpcFrameworkError, rpcResult, type JsonRpcId, type JsonRpcMessage } from './json-rpc-envelope.js';
export { parseJsonRpcMessage, replyIdOf, type JsonRpcParseOptions } from './json-rpc-message.js';
export { JsonRpcMethods } from './json-rpc-methods.js';
export { JsonRpcWireError } from './json-rpc-wire.error.js';
