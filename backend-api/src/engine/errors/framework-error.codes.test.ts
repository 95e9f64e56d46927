import { describe, expect, it } from 'vitest';
import { FRAMEWORK_ERROR_JSON_RPC, FRAMEWORK_ERROR_STATUS, JSON_RPC_ERROR_CODES } from './framework-error.codes.js';
import { FrameworkError, toJsonRpcError } from './framework-error.js';

describe('the code tables', () => {
  it('give every code an HTTP status and a JSON-RPC code, in the ranges JSON-RPC reserves', () => {
    expect(Object.keys(FRAMEWORK_ERROR_JSON_RPC).sort()).toEqual(Object.keys(FRAMEWORK_ERROR_STATUS).sort());
    const reserved = new Set<number>([-32700, -32600, -32601, -32602, -32603]);
    for (const code of Object.values(FRAMEWORK_ERROR_JSON_RPC))
      expect(reserved.has(code) || (code <= -32000 && code >= -32099)).toBe(true);
  });

  it('map input, authentication and internal failures to their JSON-RPC counterparts and every refusal to a server error', () => {
    expect(FRAMEWORK_ERROR_JSON_RPC.VALIDATION_FAILED).toBe(JSON_RPC_ERROR_CODES.INVALID_PARAMS);
    expect(FRAMEWORK_ERROR_JSON_RPC.MALFORMED_JSON).toBe(JSON_RPC_ERROR_CODES.PARSE_ERROR);
    expect(FRAMEWORK_ERROR_JSON_RPC.UNAUTHENTICATED).toBe(JSON_RPC_ERROR_CODES.AUTHENTICATION_REQUIRED);
    expect(FRAMEWORK_ERROR_JSON_RPC.INTERNAL).toBe(JSON_RPC_ERROR_CODES.INTERNAL_ERROR);
    expect(FRAMEWORK_ERROR_JSON_RPC.FORBIDDEN).toBe(JSON_RPC_ERROR_CODES.SERVER_ERROR);
  });
});

describe('toJsonRpcError', () => {
  it('carries the client-safe message, the reason and the input problems', () => {
    const error = new FrameworkError('VALIDATION_FAILED', 'The arguments are invalid.', {
      reason: 'input_invalid',
      problems: [{ path: 'title', expected: 'a string' }],
      details: { secret: 'x' },
    });
    expect(toJsonRpcError(error)).toEqual({
      code: -32602,
      message: 'The arguments are invalid.',
      data: { reason: 'input_invalid', problems: [{ path: 'title', expected: 'a string' }] },
    });
  });

  it('answers an internal error with a generic message and nothing of its cause', () => {
    const error = new FrameworkError('INTERNAL', 'connection to 10.0.0.7 refused', {
      cause: new Error('db down'),
      details: { host: '10.0.0.7' },
    });
    expect(toJsonRpcError(error)).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('omits data for an error with neither reason nor problems', () => {
    expect(toJsonRpcError(new FrameworkError('NOT_FOUND', 'No such record.'))).toEqual({
      code: -32000,
      message: 'No such record.',
    });
  });

  it('takes a surface’s own table (A2A names a task not found)', () => {
    const a2a = { ...FRAMEWORK_ERROR_JSON_RPC, NOT_FOUND: -32001 };
    expect(toJsonRpcError(new FrameworkError('NOT_FOUND', 'No such task.'), a2a)).toEqual({
      code: -32001,
      message: 'No such task.',
    });
  });
});
