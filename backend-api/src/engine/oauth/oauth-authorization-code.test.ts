import express from 'express';
import supertest from 'supertest';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization, signUp } from '../../testing/identity.fixtures.js';
import {
  API_AUDIENCE,
  authorizationRequest,
  consent,
  createTrustedClient,
  exchangeCode,
  MCP_AUDIENCE,
  MCP_SUPPORT_AUDIENCE,
  pkcePair,
  REDIRECT_URI,
  registerPublicClient,
} from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import { toFrameworkError } from '../errors/index.js';
import type { ResourceServerAuthenticator } from '../resource-servers/resource-server.authenticator.js';

const database = useTestDatabase();
const withRegistration = { oauth: { dynamicClientRegistration: { enabled: true, maxRegistrationsPerHourPerIp: 100 } } };

/** A stand-in resource server: answers 200 with the principal for tokens of `audience`, 401 otherwise. */
function protectedEndpoint(t: TestBackend, audience: string) {
  const authenticator = t.backend.container.get<ResourceServerAuthenticator>(
    SAAS_SERVICE_TYPES.ResourceServerAuthenticator,
  );
  const app = express();
  app.get('/probe', async (req, res) => {
    try {
      const principal = await authenticator.authenticate(req.get('authorization'), audience);
      if (!principal) return void res.status(401).json({ error: 'no credential' });
      res.json({ principal });
    } catch (error) {
      res.status(toFrameworkError(error).status).json({ error: toFrameworkError(error).code });
    }
  });
  return supertest(app);
}

async function delegatedToken(t: TestBackend, overrides: Record<string, string> = {}) {
  const person = await signUp(t.api);
  const clientId = await registerPublicClient(t.api);
  const { verifier, challenge } = pkcePair();
  const redirect = await consent(t.api, person, authorizationRequest(clientId, challenge, overrides));
  const code = redirect.searchParams.get('code') as string;
  const token = await exchangeCode(t.api, { client_id: clientId, code, code_verifier: verifier });
  return { person, clientId, verifier, challenge, code, token };
}

describe('authorization code with PKCE', () => {
  it('issues an audience-bound delegated token accepted only by its own endpoint', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const { person, clientId, token } = await delegatedToken(t);
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body).toMatchObject({ token_type: 'Bearer', scope: 'openid' });
    expect(token.body.refresh_token).toBeUndefined();
    expect(decodeJwt(token.body.access_token)).toMatchObject({
      aud: MCP_AUDIENCE,
      sub: person.userId,
      azp: clientId,
      av: 1,
    });
    const bearer = `Bearer ${token.body.access_token}`;
    const own = await protectedEndpoint(t, MCP_AUDIENCE).get('/probe').set('Authorization', bearer);
    expect(own.status).toBe(200);
    expect(own.body.principal).toMatchObject({
      kind: 'user',
      userId: person.userId,
      credential: { type: 'delegated_token', authorizedParty: clientId },
    });
    expect((await protectedEndpoint(t, MCP_SUPPORT_AUDIENCE).get('/probe').set('Authorization', bearer)).status).toBe(
      401,
    );
    expect((await t.api.get('/api/v1/auth/me').set('Authorization', bearer)).status).toBe(401);
  });

  it('returns the state and the issuer (RFC 9207) with the code, and an ID token for openid', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    const { verifier, challenge } = pkcePair();
    const request = authorizationRequest(clientId, challenge, { nonce: 'n-0S6_WzA2Mj' });
    const redirect = await consent(t.api, person, request);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
    expect(redirect.searchParams.get('state')).toBe(request.state);
    expect(redirect.searchParams.get('iss')).toBe('http://localhost:4241');
    const token = await exchangeCode(t.api, {
      client_id: clientId,
      code: redirect.searchParams.get('code') as string,
      code_verifier: verifier,
    });
    expect(decodeJwt(token.body.id_token)).toMatchObject({
      aud: clientId,
      sub: person.userId,
      nonce: 'n-0S6_WzA2Mj',
      iss: 'http://localhost:4241',
    });
  });

  it('refuses a PKCE verifier that does not match', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    const { challenge } = pkcePair();
    const redirect = await consent(t.api, person, authorizationRequest(clientId, challenge));
    const res = await exchangeCode(t.api, {
      client_id: clientId,
      code: redirect.searchParams.get('code') as string,
      code_verifier: pkcePair().verifier,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('refuses a code used twice', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const { clientId, code, verifier, token } = await delegatedToken(t);
    expect(token.status).toBe(200);
    const replay = await exchangeCode(t.api, { client_id: clientId, code, code_verifier: verifier });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
  });

  it('refuses a redirect URI that differs at the token request', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    const { verifier, challenge } = pkcePair();
    const redirect = await consent(t.api, person, authorizationRequest(clientId, challenge));
    const res = await exchangeCode(t.api, {
      client_id: clientId,
      code: redirect.searchParams.get('code') as string,
      code_verifier: verifier,
      redirect_uri: 'https://tool.example/other',
    });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('never redirects to an unregistered redirect URI', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    const request = authorizationRequest(clientId, pkcePair().challenge, {
      redirect_uri: 'https://evil.example/callback',
    });
    const res = await t.api.post('/api/v1/oauth/authorize').set(person.auth).send(request);
    expect(res.status).toBe(400);
    expect(res.body.error.problems).toEqual([
      { path: 'redirect_uri', expected: 'a redirect URI registered for this client (exact match)' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('evil.example');
  });

  it('refuses a resource at the token request that differs from the authorized one', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    const { verifier, challenge } = pkcePair();
    const redirect = await consent(t.api, person, authorizationRequest(clientId, challenge));
    const res = await exchangeCode(t.api, {
      client_id: clientId,
      code: redirect.searchParams.get('code') as string,
      code_verifier: verifier,
      resource: MCP_SUPPORT_AUDIENCE,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_target');
  });

  it('refuses a resource that is not a delegatable agent endpoint', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    for (const resource of [API_AUDIENCE, 'https://elsewhere.example/mcp']) {
      const redirect = await consent(t.api, person, authorizationRequest(clientId, pkcePair().challenge, { resource }));
      expect(redirect.searchParams.get('error')).toBe('invalid_target');
      expect(redirect.searchParams.get('code')).toBeNull();
    }
    const control = await consent(
      t.api,
      person,
      authorizationRequest(clientId, pkcePair().challenge, { resource: MCP_SUPPORT_AUDIENCE }),
    );
    expect(control.searchParams.get('code')).toBeTruthy();
  });

  it('requires PKCE S256 and identity scopes only', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    const plain = await consent(
      t.api,
      person,
      authorizationRequest(clientId, pkcePair().challenge, { code_challenge_method: 'plain' }),
    );
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    const business = await consent(
      t.api,
      person,
      authorizationRequest(clientId, pkcePair().challenge, { scope: 'openid todos:write' }),
    );
    expect(business.searchParams.get('error')).toBe('invalid_scope');
  });

  it('sends the client an access_denied error when the person denies', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    const redirect = await consent(t.api, person, authorizationRequest(clientId, pkcePair().challenge), {
      decision: 'deny',
    });
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('code')).toBeNull();
  });

  it('binds a consent request to its person and to one decision', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const intruder = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    const started = await t.api
      .post('/api/v1/oauth/authorize')
      .set(person.auth)
      .send(authorizationRequest(clientId, pkcePair().challenge));
    const token = started.body.data.consent_token as string;
    expect(
      (
        await t.api
          .post('/api/v1/oauth/authorize/decision')
          .set(intruder.auth)
          .send({ consent_token: token, decision: 'approve' })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.api
          .post('/api/v1/oauth/authorize/decision')
          .set(person.auth)
          .send({ consent_token: token, decision: 'approve' })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.api
          .post('/api/v1/oauth/authorize/decision')
          .set(person.auth)
          .send({ consent_token: token, decision: 'approve' })
      ).status,
    ).toBe(400);
  });

  it('refuses a code after the person’s roles changed', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const owner = await signUp(t.api);
    const person = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner);
    await addMember(t.api, owner, orgId, person, 'ORG_MANAGER');
    const clientId = await registerPublicClient(t.api);
    const { verifier, challenge } = pkcePair();
    const redirect = await consent(t.api, person, authorizationRequest(clientId, challenge));
    await t.api
      .put(`/api/v1/organizations/${orgId}/members/${person.userId}`)
      .set(owner.auth)
      .send({ role: 'ORG_MEMBER' });
    const res = await exchangeCode(t.api, {
      client_id: clientId,
      code: redirect.searchParams.get('code') as string,
      code_verifier: verifier,
    });
    expect(res.body.error).toBe('invalid_grant');
  });
});

describe('remembered consent', () => {
  it('skips the prompt only after an approval with remember, until the grant is withdrawn', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    const ask = () =>
      t.api.post('/api/v1/oauth/authorize').set(person.auth).send(authorizationRequest(clientId, pkcePair().challenge));
    await consent(t.api, person, authorizationRequest(clientId, pkcePair().challenge));
    expect((await ask()).body.data.kind).toBe('consent');
    await consent(t.api, person, authorizationRequest(clientId, pkcePair().challenge), {
      decision: 'approve',
      remember: true,
    });
    expect((await ask()).body.data.kind).toBe('redirect');
    const grants = await t.api.get('/api/v1/oauth-consent-grants').set(person.auth);
    expect(grants.body.data).toEqual([
      expect.objectContaining({ clientId, resource: MCP_AUDIENCE, scopes: ['openid'] }),
    ]);
    expect(
      (await t.api.delete(`/api/v1/oauth-consent-grants/${grants.body.data[0]._id}`).set(person.auth)).status,
    ).toBe(200);
    expect((await ask()).body.data.kind).toBe('consent');
  });

  it('does not skip the prompt for wider scopes than remembered', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    await consent(t.api, person, authorizationRequest(clientId, pkcePair().challenge), {
      decision: 'approve',
      remember: true,
    });
    const wider = await t.api
      .post('/api/v1/oauth/authorize')
      .set(person.auth)
      .send(authorizationRequest(clientId, pkcePair().challenge, { scope: 'openid profile' }));
    expect(wider.body.data.kind).toBe('consent');
  });

  it('keeps each person’s remembered consents private', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const person = await signUp(t.api);
    const other = await signUp(t.api);
    const clientId = await registerPublicClient(t.api);
    await consent(t.api, person, authorizationRequest(clientId, pkcePair().challenge), {
      decision: 'approve',
      remember: true,
    });
    const id = (await t.api.get('/api/v1/oauth-consent-grants').set(person.auth)).body.data[0]._id;
    expect((await t.api.get('/api/v1/oauth-consent-grants').set(other.auth)).body.data).toEqual([]);
    expect((await t.api.delete(`/api/v1/oauth-consent-grants/${id}`).set(other.auth)).status).toBe(404);
    // Creating or widening a grant is internal to the consent decision: no route accepts it.
    expect((await t.api.post('/api/v1/oauth-consent-grants').set(person.auth).send({ clientId: 'x' })).status).toBe(
      405,
    );
  });
});

describe('trusted organization clients', () => {
  it('skip consent for members of their organization only', async () => {
    await using t = await createTestBackend(database(), withRegistration);
    const admin = await signUp(t.api);
    const outsider = await signUp(t.api);
    const orgId = await createOrganization(t.api, admin);
    const clientId = await createTrustedClient(t.api, admin, orgId);
    const forMember = await t.api
      .post('/api/v1/oauth/authorize')
      .set(admin.auth)
      .send(authorizationRequest(clientId, pkcePair().challenge));
    expect(forMember.body.data.kind).toBe('redirect');
    const forOutsider = await t.api
      .post('/api/v1/oauth/authorize')
      .set(outsider.auth)
      .send(authorizationRequest(clientId, pkcePair().challenge));
    expect(forOutsider.body.data.kind).toBe('consent');
  });
});
