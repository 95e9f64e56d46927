import { describe, expect, it } from 'vitest';
import { createOrganization, signUp } from '../../testing/identity.fixtures.js';
import {
  HANDSHAKE_VERSION,
  handshake,
  MCP_HOST,
  MCP_PATH,
  mcpPost,
  organizationApiKey,
  rpc,
  spyOnServices,
  stateless,
  STATELESS_VERSION,
  statelessMeta,
} from '../../testing/mcp.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { ENGINE_VERSION } from '../config/index.js';
import {
  MCP_SUPPORTED_PROTOCOL_VERSIONS,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  RPC_ERRORS,
} from './mcp-protocol.js';

const database = useTestDatabase();

const initialize = (protocolVersion: string) =>
  rpc('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'wire-test', version: '1.0.0' } });

/** A member of a fresh organization and an API key acting there. */
async function caller(t: TestBackend) {
  const owner = await signUp(t.api);
  const organizationId = await createOrganization(t.api, owner);
  return { owner, organizationId, key: await organizationApiKey(t.api, owner, organizationId) };
}

describe('MCP wire, handshake era', () => {
  it('exports the revisions it serves, newest first', () => {
    expect(MCP_SUPPORTED_PROTOCOL_VERSIONS).toEqual(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
  });

  for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
    it(`echoes a supported revision at initialize (${version}), without a credential`, async () => {
      await using t = await createTestBackend(database());
      const res = await mcpPost(t.api, MCP_PATH, initialize(version));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {
          protocolVersion: version,
          capabilities: { tools: { listChanged: false }, logging: {} },
          serverInfo: { name: 'wildo-mcp', version: ENGINE_VERSION },
        },
      });
      // The session id carries the client's declared capabilities, signed: no server state.
      expect(res.headers['mcp-session-id']).toMatch(/^[\w-]+\.[\w-]+$/);
    });
  }

  it('answers an unsupported revision at initialize with another one it serves', async () => {
    await using t = await createTestBackend(database());
    const res = await mcpPost(t.api, MCP_PATH, initialize('2024-11-05'));
    expect(res.status).toBe(200);
    expect(res.body.result.protocolVersion).toBe('2025-11-25');
  });

  it('accepts notifications/initialized with 202 and no body', async () => {
    await using t = await createTestBackend(database());
    const res = await mcpPost(
      t.api,
      MCP_PATH,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'MCP-Protocol-Version': HANDSHAKE_VERSION },
    );
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  it('refuses an unsupported MCP-Protocol-Version on a later request with 400, before authentication', async () => {
    await using t = await createTestBackend(database());
    const { key } = await caller(t);
    const control = await handshake(t.api, MCP_PATH, rpc('tools/list'), key, '2025-06-18');
    expect(control.status).toBe(200);
    expect(control.body.result.tools.length).toBeGreaterThan(0);
    for (const authorization of [key, undefined]) {
      const res = await handshake(t.api, MCP_PATH, rpc('tools/list'), authorization, '2024-11-05');
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(RPC_ERRORS.SERVER_ERROR);
      expect(res.body.id).toBe(1);
    }
  });

  it('answers ping without a credential', async () => {
    await using t = await createTestBackend(database());
    const res = await handshake(t.api, MCP_PATH, rpc('ping', undefined, 'p-1'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 'p-1', result: {} });
  });

  it('answers GET with 405 (no server-initiated stream) and names POST', async () => {
    await using t = await createTestBackend(database());
    const res = await t.api.get(MCP_PATH).set({ Host: MCP_HOST, Accept: 'text/event-stream' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('refuses a body that is not JSON with 415', async () => {
    await using t = await createTestBackend(database());
    const control = await mcpPost(t.api, MCP_PATH, initialize(HANDSHAKE_VERSION));
    expect(control.status).toBe(200);
    const res = await t.api
      .post(MCP_PATH)
      .set({ Host: MCP_HOST, 'Content-Type': 'text/plain' })
      .send(JSON.stringify(initialize(HANDSHAKE_VERSION)));
    expect(res.status).toBe(415);
  });

  it('answers malformed JSON with 400 and a parse error (-32700)', async () => {
    await using t = await createTestBackend(database());
    const res = await t.api
      .post(MCP_PATH)
      .set({ Host: MCP_HOST, 'Content-Type': 'application/json' })
      .send('{"jsonrpc":"2.0","id":1,"method":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: RPC_ERRORS.PARSE_ERROR, message: 'Parse error' },
    });
  });

  it('refuses an envelope that is not JSON-RPC 2.0, and batches, as invalid requests', async () => {
    await using t = await createTestBackend(database());
    for (const body of [{ id: 1, method: 'ping' }, [rpc('ping')], { jsonrpc: '2.0', id: 1 }]) {
      const res = await mcpPost(t.api, MCP_PATH, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe(RPC_ERRORS.INVALID_REQUEST);
    }
  });

  it('answers an unknown method with -32601', async () => {
    await using t = await createTestBackend(database());
    const { key } = await caller(t);
    const res = await handshake(t.api, MCP_PATH, rpc('resources/list'), key);
    expect(res.status).toBe(200);
    expect(res.body.error).toEqual({ code: RPC_ERRORS.METHOD_NOT_FOUND, message: 'Method not found' });
  });
});

/** A stateless request with its headers and `_meta` spelled out, to break one thing at a time. */
function statelessRaw(
  t: TestBackend,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string | undefined>,
  meta: Record<string, unknown> | undefined = statelessMeta(),
) {
  const present = Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return mcpPost(t.api, MCP_PATH, rpc(method, { ...params, ...(meta ? { _meta: meta } : {}) }), present);
}

describe('MCP wire, stateless revision 2026-07-28', () => {
  it('answers server/discover without a credential', async () => {
    await using t = await createTestBackend(database());
    const res = await stateless(t.api, MCP_PATH, 'server/discover');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: [STATELESS_VERSION],
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: 'wildo-mcp', version: ENGINE_VERSION },
    });
    expect(res.body.result._meta[META_SERVER_INFO]).toEqual({ name: 'wildo-mcp', version: ENGINE_VERSION });
  });

  it('answers ping with 404 / method not found: the stateless revision removed it', async () => {
    await using t = await createTestBackend(database());
    const res = await stateless(t.api, MCP_PATH, 'ping');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe(RPC_ERRORS.METHOD_NOT_FOUND);
  });

  it('lists tools with complete results, private cache hints and the server in _meta', async () => {
    await using t = await createTestBackend(database());
    const { key } = await caller(t);
    const res = await stateless(t.api, MCP_PATH, 'tools/list', {}, key);
    expect(res.status).toBe(200);
    expect(res.body.result.resultType).toBe('complete');
    expect(res.body.result.cacheScope).toBe('private');
    expect(res.body.result.ttlMs).toBeGreaterThan(0);
    expect(res.body.result._meta[META_SERVER_INFO]).toEqual({ name: 'wildo-mcp', version: ENGINE_VERSION });
    expect(res.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('todos__list');
    // A caller-specific catalogue: shared caches must not keep it.
    expect(res.headers['cache-control']).toBe('private, max-age=60');
  });

  it('calls a tool with mirrored headers (control for the mismatches below)', async () => {
    await using t = await createTestBackend(database());
    const { key } = await caller(t);
    const services = spyOnServices(t);
    const res = await stateless(t.api, MCP_PATH, 'tools/call', { name: 'todos__list', arguments: {} }, key);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      resultType: 'complete',
      isError: false,
      structuredContent: { data: [], nextCursor: null },
    });
    expect(services.count()).toBe(1);
  });

  const call = { name: 'todos__list', arguments: {} };
  const mirrored = { 'MCP-Protocol-Version': STATELESS_VERSION, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'todos__list' };
  const mismatches: [string, Record<string, string | undefined>, Record<string, unknown>?][] = [
    ['MCP-Protocol-Version differs from the body', { ...mirrored, 'MCP-Protocol-Version': '2025-11-25' }],
    ['MCP-Protocol-Version is missing', { ...mirrored, 'MCP-Protocol-Version': undefined }],
    ['Mcp-Method differs from the method', { ...mirrored, 'Mcp-Method': 'tools/list' }],
    ['Mcp-Method is missing', { ...mirrored, 'Mcp-Method': undefined }],
    ['Mcp-Name differs from params.name', { ...mirrored, 'Mcp-Name': 'todos__delete' }],
    ['Mcp-Name is missing', { ...mirrored, 'Mcp-Name': undefined }],
  ];
  for (const [label, headers] of mismatches) {
    it(`rejects a request whose ${label} with 400/-32020, before authentication and dispatch`, async () => {
      await using t = await createTestBackend(database());
      const { key } = await caller(t);
      const services = spyOnServices(t);
      for (const authorization of [key, undefined]) {
        const res = await statelessRaw(t, 'tools/call', call, { ...headers, Authorization: authorization });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe(RPC_ERRORS.HEADER_MISMATCH);
        expect(res.headers['www-authenticate']).toBeUndefined();
      }
      expect(services.count()).toBe(0);
    });
  }

  it('rejects a request whose _meta lacks the client capabilities with 400/-32602', async () => {
    await using t = await createTestBackend(database());
    const { key } = await caller(t);
    const services = spyOnServices(t);
    const res = await statelessRaw(
      t,
      'tools/call',
      call,
      { ...mirrored, Authorization: key },
      { [META_PROTOCOL_VERSION]: STATELESS_VERSION },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(RPC_ERRORS.INVALID_PARAMS);
    expect(res.body.error.message).toContain(META_CLIENT_CAPABILITIES);
    expect(services.count()).toBe(0);
  });

  it('rejects an unknown revision with 400/-32022 naming the supported ones', async () => {
    await using t = await createTestBackend(database());
    const { key } = await caller(t);
    const services = spyOnServices(t);
    const res = await statelessRaw(
      t,
      'tools/call',
      call,
      { ...mirrored, 'MCP-Protocol-Version': '2099-01-01', Authorization: key },
      { [META_PROTOCOL_VERSION]: '2099-01-01', [META_CLIENT_CAPABILITIES]: {} },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: RPC_ERRORS.UNSUPPORTED_PROTOCOL_VERSION,
      data: { supported: [STATELESS_VERSION], requested: '2099-01-01' },
    });
    expect(services.count()).toBe(0);
  });

  it('answers a method the stateless revision does not have with -32601', async () => {
    await using t = await createTestBackend(database());
    const res = await statelessRaw(
      t,
      'resources/list',
      {},
      { 'MCP-Protocol-Version': STATELESS_VERSION, 'Mcp-Method': 'resources/list' },
    );
    expect(res.body.error.code).toBe(RPC_ERRORS.METHOD_NOT_FOUND);
  });
});
