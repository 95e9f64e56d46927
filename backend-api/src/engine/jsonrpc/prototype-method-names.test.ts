import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2A_PATH, a2aPost } from '../../testing/a2a.fixtures.js';
import { handshake, MCP_PATH, rpc, stateless } from '../../testing/mcp.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { JSON_RPC_ERROR_CODES } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { JsonRpcMethods } from './json-rpc-methods.js';

// Names an object literal indexed by the method would find on Object.prototype (and run as a handler).
const PROTOTYPE_NAMES = ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

/** A logger that keeps its lines, to show an unknown method leaves no error line. */
function recordingLogger(lines: { level: string; message: string }[]): Logger {
  const logger: Logger = {
    debug: (message) => void lines.push({ level: 'debug', message }),
    info: (message) => void lines.push({ level: 'info', message }),
    warn: (message) => void lines.push({ level: 'warn', message }),
    error: (message) => void lines.push({ level: 'error', message }),
    child: () => logger,
  };
  return logger;
}

describe('JsonRpcMethods', () => {
  it('finds only its own methods', () => {
    const methods = new JsonRpcMethods({ 'tools/list': 1 });
    expect(methods.get('tools/list')).toBe(1);
    for (const name of PROTOTYPE_NAMES) {
      expect(methods.get(name)).toBeUndefined();
      expect(methods.has(name)).toBe(false);
    }
  });
});

describe('a method named after a member of Object.prototype, unauthenticated', () => {
  const database = useTestDatabase();
  const lines: { level: string; message: string }[] = [];
  let t: TestBackend;
  beforeAll(async () => {
    t = await createTestBackend(database(), { logger: recordingLogger(lines) });
  });
  afterAll(() => t.close());
  const errorLines = () => lines.filter((line) => line.level === 'error');

  it.each(PROTOTYPE_NAMES)('A2A answers %s with -32601', async (method) => {
    const res = await a2aPost(t.api, A2A_PATH, method, {});
    expect(res.status).toBe(200);
    expect(res.body.error).toMatchObject({ code: JSON_RPC_ERROR_CODES.METHOD_NOT_FOUND });
    expect(errorLines()).toEqual([]);
  });

  it('A2A still asks a known method for a credential (the positive control)', async () => {
    const res = await a2aPost(t.api, A2A_PATH, 'GetTask', { id: 'task-1' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).not.toBe(JSON_RPC_ERROR_CODES.METHOD_NOT_FOUND);
  });

  it.each(PROTOTYPE_NAMES)('MCP answers %s with -32601 in the handshake era', async (method) => {
    const res = await handshake(t.api, MCP_PATH, rpc(method));
    expect(res.status).toBe(200);
    expect(res.body.error).toMatchObject({ code: JSON_RPC_ERROR_CODES.METHOD_NOT_FOUND });
    expect(errorLines()).toEqual([]);
  });

  it.each(PROTOTYPE_NAMES)('MCP answers %s with -32601 in the stateless era', async (method) => {
    const res = await stateless(t.api, MCP_PATH, method);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: JSON_RPC_ERROR_CODES.METHOD_NOT_FOUND });
    expect(errorLines()).toEqual([]);
  });

  it('MCP still serves a known public method and challenges a known private one (the positive controls)', async () => {
    const ping = await handshake(t.api, MCP_PATH, rpc('ping'));
    expect(ping.status).toBe(200);
    expect(ping.body.result).toEqual({});
    const list = await stateless(t.api, MCP_PATH, 'tools/list');
    expect(list.status).toBe(401);
  });
});
