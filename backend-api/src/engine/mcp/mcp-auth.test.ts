import { describe, expect, it } from 'vitest';
import { createOrganization, signUp } from '../../testing/identity.fixtures.js';
import {
  delegatedToken,
  handshake,
  MCP_BACKEND_OPTIONS,
  MCP_PATH,
  MCP_SUPPORT_PATH,
  mcpPost,
  organizationApiKey,
  rpc,
  spyOnServices,
} from '../../testing/mcp.fixtures.js';
import { MCP_AUDIENCE, MCP_SUPPORT_AUDIENCE } from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { RPC_ERRORS } from './mcp-protocol.js';

const database = useTestDatabase();

const METADATA = 'http://localhost:4241/.well-known/oauth-protected-resource/api/v1/mcp';
const SUPPORT_METADATA = 'http://localhost:4241/.well-known/oauth-protected-resource/api/v1/mcp/support';

/** A person who owns an organization (so both catalogues have tools for them). */
async function person(t: TestBackend) {
  const user = await signUp(t.api);
  const organizationId = await createOrganization(t.api, user);
  return { user, organizationId };
}

describe('MCP authentication', () => {
  it('challenges an anonymous tools/list and tools/call with 401 pointing at the protected resource metadata', async () => {
    await using t = await createTestBackend(database());
    const services = spyOnServices(t);
    for (const body of [rpc('tools/list'), rpc('tools/call', { name: 'todos__list', arguments: {} })]) {
      const res = await handshake(t.api, MCP_PATH, body);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(`Bearer resource_metadata="${METADATA}"`);
      expect(res.body.error.code).toBe(RPC_ERRORS.AUTHENTICATION_REQUIRED);
    }
    expect(services.count()).toBe(0);
  });

  it('serves the RFC 9728 metadata the challenge points at, for the default endpoint and each instance', async () => {
    await using t = await createTestBackend(database());
    const support = await handshake(t.api, MCP_SUPPORT_PATH, rpc('tools/list'));
    expect(support.headers['www-authenticate']).toBe(`Bearer resource_metadata="${SUPPORT_METADATA}"`);
    for (const [url, resource] of [
      [METADATA, MCP_AUDIENCE],
      [SUPPORT_METADATA, MCP_SUPPORT_AUDIENCE],
    ] as const) {
      const res = await t.api.get(new URL(url).pathname);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        resource,
        authorization_servers: ['http://localhost:4241'],
        bearer_methods_supported: ['header'],
      });
    }
    const issuer = await t.api.get('/.well-known/oauth-authorization-server');
    expect(issuer.status).toBe(200);
    expect(issuer.body.issuer).toBe('http://localhost:4241');
  });

  it('accepts a delegated token for /mcp/support there and refuses it on /mcp', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { user } = await person(t);
    const token = await delegatedToken(t.api, user, MCP_SUPPORT_AUDIENCE);
    const own = await handshake(t.api, MCP_SUPPORT_PATH, rpc('tools/list'), token);
    expect(own.status).toBe(200);
    expect(own.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('todos__stats');
    for (const body of [rpc('tools/list'), rpc('tools/call', { name: 'todos__list', arguments: {} })]) {
      const res = await handshake(t.api, MCP_PATH, body, token);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(`Bearer error="invalid_token", resource_metadata="${METADATA}"`);
    }
  });

  it('accepts a delegated token for /mcp there and refuses it on /mcp/support', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { user } = await person(t);
    const token = await delegatedToken(t.api, user, MCP_AUDIENCE);
    const own = await handshake(t.api, MCP_PATH, rpc('tools/call', { name: 'todos__list', arguments: {} }), token);
    expect(own.status).toBe(200);
    expect(own.body.result.isError).toBe(false);
    const services = spyOnServices(t);
    const res = await handshake(
      t.api,
      MCP_SUPPORT_PATH,
      rpc('tools/call', { name: 'todos__stats', arguments: {} }),
      token,
    );
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      `Bearer error="invalid_token", resource_metadata="${SUPPORT_METADATA}"`,
    );
    expect(services.count()).toBe(0);
  });

  it('refuses a first-party REST token (audience /api/v1) on both endpoints', async () => {
    await using t = await createTestBackend(database());
    const { user } = await person(t);
    expect((await t.api.get('/api/v1/auth/me').set(user.auth)).status).toBe(200);
    for (const path of [MCP_PATH, MCP_SUPPORT_PATH]) {
      const res = await handshake(t.api, path, rpc('tools/list'), user.auth.Authorization);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
      // Its own message: the token is good, only for another audience (a forged one below is not told so).
      expect(JSON.stringify(res.body)).toContain('for another audience');
    }
  });

  it('refuses a malformed or forged credential with 401', async () => {
    await using t = await createTestBackend(database());
    const { user, organizationId } = await person(t);
    const key = await organizationApiKey(t.api, user, organizationId);
    const forgedKey = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    for (const authorization of ['Bearer not-a-jwt', 'Basic dXNlcjpwYXNz', forgedKey]) {
      const res = await handshake(t.api, MCP_PATH, rpc('tools/list'), authorization);
      expect(res.status, authorization.slice(0, 10)).toBe(401);
      expect(JSON.stringify(res.body)).not.toContain('another audience');
    }
  });

  it('accepts an API key on the default endpoint and on a named instance', async () => {
    await using t = await createTestBackend(database());
    const { user, organizationId } = await person(t);
    const key = await organizationApiKey(t.api, user, organizationId);
    for (const [path, tool] of [
      [MCP_PATH, 'todos__list'],
      [MCP_SUPPORT_PATH, 'todos__stats'],
    ] as const) {
      const list = await handshake(t.api, path, rpc('tools/list'), key);
      expect(list.status).toBe(200);
      const res = await handshake(t.api, path, rpc('tools/call', { name: tool, arguments: {} }), key);
      expect(res.status).toBe(200);
      expect(res.body.result.isError, JSON.stringify(res.body)).toBe(false);
    }
  });
});

describe('MCP DNS-rebinding protection', () => {
  it('refuses a foreign Host with 403 and accepts the public one', async () => {
    await using t = await createTestBackend(database());
    const body = rpc('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    });
    expect((await mcpPost(t.api, MCP_PATH, body)).status).toBe(200);
    for (const host of ['evil.example', 'evil.example:4241', 'localhost.evil.example']) {
      const res = await mcpPost(t.api, MCP_PATH, body, { Host: host });
      expect(res.status, host).toBe(403);
    }
  });

  it('accepts loopback names on any port only because the issuer is a loopback URL', async () => {
    await using t = await createTestBackend(database());
    const body = rpc('ping');
    for (const host of ['localhost:5173', '127.0.0.1:4241', '[::1]:4241'])
      expect((await mcpPost(t.api, MCP_PATH, body, { Host: host })).status, host).toBe(200);
    await using remote = await createTestBackend(database(), { publicUrl: 'https://tools.example.com' });
    expect((await mcpPost(remote.api, MCP_PATH, body, { Host: 'tools.example.com' })).status).toBe(200);
    for (const host of ['localhost:4241', '127.0.0.1'])
      expect((await mcpPost(remote.api, MCP_PATH, body, { Host: host })).status, host).toBe(403);
  });
});
