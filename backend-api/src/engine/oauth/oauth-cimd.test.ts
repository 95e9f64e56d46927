import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../testing/identity.fixtures.js';
import { consent, exchangeCode, MCP_AUDIENCE, pkcePair } from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase } from '../../testing/test-backend.js';
import { startHttpsServer, testCertificate, type LocalServer } from '../net/test-support/local-servers.js';
import type { OutboundTargetGuardOptions } from '../net/index.js';

const database = useTestDatabase();
const REDIRECT = 'https://tool.test/callback';

/** Documents served by a local HTTPS server reachable as `tool.test` (development mode, test CA trusted). */
let server: LocalServer;
let documents: Record<string, unknown> = {};
beforeAll(async () => {
  server = await startHttpsServer((req, res) => {
    const doc = documents[req.url ?? ''];
    if (!doc) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
});
afterAll(() => server.close());

const url = (path: string) => `https://tool.test:${server.port}${path}`;
const development = (): OutboundTargetGuardOptions => ({
  mode: 'development',
  developmentTargets: [{ host: 'tool.test', port: server.port }],
  trustedCertificates: [testCertificate().cert],
  resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
});

function documentFor(clientId: string, overrides: Record<string, unknown> = {}) {
  return {
    client_id: clientId,
    client_name: 'Metadata tool',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    ...overrides,
  };
}

describe('Client ID Metadata Document clients', () => {
  it('complete the authorization code flow when their document is allowlisted and consistent', async () => {
    const clientId = url('/client.json');
    documents = { '/client.json': documentFor(clientId) };
    await using t = await createTestBackend(database(), {
      oauth: { cimd: { policy: 'ALLOWLIST' as never, allowedClients: [clientId] } },
      outbound: development(),
    });
    const person = await signUp(t.api);
    const { verifier, challenge } = pkcePair();
    const started = await t.api.post('/api/v1/oauth/authorize').set(person.auth).send({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: MCP_AUDIENCE,
    });
    expect(started.body.data).toMatchObject({
      kind: 'consent',
      client: { client_id: clientId, client_name: 'Metadata tool' },
    });
    const redirect = await consent(t.api, person, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: MCP_AUDIENCE,
    });
    const token = await exchangeCode(t.api, {
      client_id: clientId,
      code: redirect.searchParams.get('code') as string,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
  });

  it('are refused when the document’s client_id differs from its URL', async () => {
    const clientId = url('/mismatch.json');
    documents = { '/mismatch.json': documentFor(url('/someone-else.json')) };
    await using t = await createTestBackend(database(), {
      oauth: { cimd: { policy: 'ALLOWLIST' as never, allowedClients: [clientId] } },
      outbound: development(),
    });
    const person = await signUp(t.api);
    const res = await t.api.post('/api/v1/oauth/authorize').set(person.auth).send({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      resource: MCP_AUDIENCE,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.problems[0].path).toBe('client_id');
  });

  it('are refused when the document sits on a private address (production mode)', async () => {
    const clientId = 'https://tool.example/client.json';
    await using t = await createTestBackend(database(), {
      oauth: { cimd: { policy: 'ALLOWLIST' as never, allowedClients: [clientId] } },
      outbound: { mode: 'production', resolveHost: async () => [{ address: '10.0.0.5', family: 4 }] },
    });
    const person = await signUp(t.api);
    const res = await t.api.post('/api/v1/oauth/authorize').set(person.auth).send({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: 'https://tool.example/callback',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      resource: MCP_AUDIENCE,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('fetch_refused');
  });

  it('are refused when CIMD is disabled (the default)', async () => {
    const clientId = url('/client.json');
    documents = { '/client.json': documentFor(clientId) };
    await using t = await createTestBackend(database());
    const person = await signUp(t.api);
    const res = await t.api.post('/api/v1/oauth/authorize').set(person.auth).send({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      resource: MCP_AUDIENCE,
    });
    expect(res.status).toBe(400);
    expect(server.hits).toBeGreaterThanOrEqual(0);
  });
});
