import { createHash, randomBytes } from 'node:crypto';
import type supertest from 'supertest';
import { expect } from 'vitest';
import type { TestUser } from './identity.fixtures.js';

/** The default MCP endpoint's audience in tests (the backend's default public URL). */
export const MCP_AUDIENCE = 'http://localhost:4241/api/v1/mcp';
/** The `support` MCP instance of the reference application. */
export const MCP_SUPPORT_AUDIENCE = 'http://localhost:4241/api/v1/mcp/support';
/** The REST API audience. */
export const API_AUDIENCE = 'http://localhost:4241/api/v1';
/** A redirect URI the test clients register. */
export const REDIRECT_URI = 'https://tool.example/callback';

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers a public client through dynamic registration. */
export async function registerPublicClient(api: supertest.Agent, redirectUri = REDIRECT_URI): Promise<string> {
  const res = await api.post('/api/v1/oauth/register').send({
    client_name: 'Test tool',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
    scope: 'openid profile',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.client_id as string;
}

/** The authorization request parameters of a PKCE flow. */
export function authorizationRequest(
  clientId: string,
  challenge: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: MCP_AUDIENCE,
    ...overrides,
  };
}

/** Creates a trusted public client of an organization (it may skip the consent prompt for the organization's members). */
export async function createTrustedClient(
  api: supertest.Agent,
  admin: TestUser,
  organizationId: string,
): Promise<string> {
  const res = await api
    .post(`/api/v1/organizations/${organizationId}/oauth-clients`)
    .set(admin.auth)
    .send({
      clientName: 'Internal tool',
      grantTypes: ['authorization_code'],
      redirectUris: [REDIRECT_URI],
      tokenEndpointAuthMethod: 'none',
      trusted: true,
    });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id as string;
}

/** The consent page's first call: `redirect` (prompt skipped, with a code) or `consent` (the person must decide). */
export async function startAuthorization(
  api: supertest.Agent,
  person: TestUser,
  request: Record<string, string>,
): Promise<{ kind: 'redirect' | 'consent'; redirect_to?: string; consent_token?: string }> {
  const res = await api.post('/api/v1/oauth/authorize').set(person.auth).send(request);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Runs the consent page's calls: authorize, then approve (or deny); returns the final redirect URL. */
export async function consent(
  api: supertest.Agent,
  person: TestUser,
  request: Record<string, string>,
  decision: { decision: 'approve' | 'deny'; remember?: boolean } = { decision: 'approve' },
): Promise<URL> {
  const started = await api.post('/api/v1/oauth/authorize').set(person.auth).send(request);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  if (started.body.data.kind === 'redirect') return new URL(started.body.data.redirect_to);
  const decided = await api
    .post('/api/v1/oauth/authorize/decision')
    .set(person.auth)
    .send({
      consent_token: started.body.data.consent_token,
      decision: decision.decision,
      remember: decision.remember ?? false,
    });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  return new URL(decided.body.data.redirect_to);
}

/** Exchanges a code at the token endpoint (form-encoded). */
export function exchangeCode(api: supertest.Agent, params: Record<string, string>): supertest.Test {
  return api
    .post('/api/v1/oauth/token')
    .type('form')
    .send({ grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, ...params });
}

/**
 * A token `person` delegates to `clientId` (authorization code + PKCE, consent approved and, with `remember`,
 * remembered) for `resource` (default: the MCP endpoint), as a whole `Authorization` value.
 */
export async function delegateTo(
  api: supertest.Agent,
  person: TestUser,
  clientId: string,
  options: { resource?: string; remember?: boolean } = {},
): Promise<string> {
  const { verifier, challenge } = pkcePair();
  const overrides: Record<string, string> = options.resource ? { resource: options.resource } : {};
  const redirect = await consent(api, person, authorizationRequest(clientId, challenge, overrides), {
    decision: 'approve',
    remember: options.remember ?? false,
  });
  const code = redirect.searchParams.get('code');
  expect(code, redirect.toString()).toBeTruthy();
  const token = await exchangeCode(api, {
    client_id: clientId,
    code: code as string,
    code_verifier: verifier,
    ...overrides,
  });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return `Bearer ${token.body.access_token as string}`;
}
