import { describe, expect, it } from 'vitest';
import { REDIRECT_URI } from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase } from '../../testing/test-backend.js';

const database = useTestDatabase();
const withRegistration = (max = 100) => ({
  oauth: { dynamicClientRegistration: { enabled: true, maxRegistrationsPerHourPerIp: max } },
});

describe('discovery', () => {
  it('publishes RFC 8414 metadata and the same OpenID configuration', async () => {
    await using t = await createTestBackend(database(), withRegistration());
    const metadata = await t.api.get('/.well-known/oauth-authorization-server');
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({
      issuer: 'http://localhost:4241',
      authorization_endpoint: 'http://localhost:4241/oauth/authorize',
      token_endpoint: 'http://localhost:4241/api/v1/oauth/token',
      jwks_uri: 'http://localhost:4241/.well-known/jwks.json',
      registration_endpoint: 'http://localhost:4241/api/v1/oauth/register',
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'client_credentials'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.body.client_id_metadata_document_supported).toBeUndefined();
    expect((await t.api.get('/.well-known/openid-configuration')).body).toEqual(metadata.body);
  });

  it('advertises metadata documents only when CIMD is on', async () => {
    await using t = await createTestBackend(database(), {
      oauth: { cimd: { policy: 'OPEN' as never, allowedClients: [] } },
    });
    expect(
      (await t.api.get('/.well-known/oauth-authorization-server')).body.client_id_metadata_document_supported,
    ).toBe(true);
  });
});

describe('dynamic client registration', () => {
  it('is off by default: 404 and not advertised', async () => {
    await using t = await createTestBackend(database());
    const res = await t.api.post('/api/v1/oauth/register').send({ redirect_uris: [REDIRECT_URI] });
    expect(res.status).toBe(404);
    expect((await t.api.get('/.well-known/oauth-authorization-server')).body.registration_endpoint).toBeUndefined();
  });

  it('registers a public client without a secret and lets it read its registration', async () => {
    await using t = await createTestBackend(database(), withRegistration());
    const res = await t.api.post('/api/v1/oauth/register').send({
      client_name: 'Tool',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      scope: 'openid email',
      software_id: 'ignored',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      client_name: 'Tool',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      scope: 'openid email',
      grant_types: ['authorization_code'],
    });
    expect(res.body.client_secret).toBeUndefined();
    expect(res.body.registration_access_token).toMatch(/^wrat_/);
    const uri = new URL(res.body.registration_client_uri);
    const read = await t.api.get(uri.pathname).set('Authorization', `Bearer ${res.body.registration_access_token}`);
    expect(read.status).toBe(200);
    expect(read.body.client_id).toBe(res.body.client_id);
    expect((await t.api.get(uri.pathname).set('Authorization', 'Bearer wrat_wrong')).status).toBe(401);
  });

  it('issues a secret (with client_secret_expires_at) to a confidential registration', async () => {
    await using t = await createTestBackend(database(), withRegistration());
    const res = await t.api.post('/api/v1/oauth/register').send({ redirect_uris: [REDIRECT_URI] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', client_secret_expires_at: 0 });
    expect(res.body.client_secret).toMatch(/^wcs_/);
  });

  it('refuses roles and scopes beyond identity', async () => {
    await using t = await createTestBackend(database(), withRegistration());
    const roles = await t.api
      .post('/api/v1/oauth/register')
      .send({ redirect_uris: [REDIRECT_URI], roles: ['ORG_ADMIN'] });
    expect(roles.status).toBe(400);
    expect(roles.body).toEqual({
      error: 'invalid_client_metadata',
      error_description: 'roles cannot be requested at dynamic registration.',
    });
    const scopes = await t.api
      .post('/api/v1/oauth/register')
      .send({ redirect_uris: [REDIRECT_URI], scope: 'openid todos:write' });
    expect(scopes.body.error).toBe('invalid_client_metadata');
    const machine = await t.api
      .post('/api/v1/oauth/register')
      .send({ redirect_uris: [REDIRECT_URI], grant_types: ['client_credentials'] });
    expect(machine.body.error).toBe('invalid_client_metadata');
  });

  it('refuses a body that is not JSON as invalid_client_metadata', async () => {
    await using t = await createTestBackend(database(), withRegistration());
    const res = await t.api
      .post('/api/v1/oauth/register')
      .set('content-type', 'application/json')
      .send('{"redirect_uris": [');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_client_metadata',
      error_description: 'The registration body is not valid JSON.',
    });
    const control = await t.api
      .post('/api/v1/oauth/register')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ redirect_uris: [REDIRECT_URI] }));
    expect(control.status).toBe(201);
  });

  it('refuses unsafe redirect URIs', async () => {
    await using t = await createTestBackend(database(), withRegistration());
    for (const uri of [
      'http://tool.example/cb',
      'https://user:pw@tool.example/cb',
      'https://tool.example/cb#frag',
      'javascript:alert(1)',
    ]) {
      const res = await t.api.post('/api/v1/oauth/register').send({ redirect_uris: [uri] });
      expect(res.status, uri).toBe(400);
      expect(res.body.error).toBe('invalid_redirect_uri');
    }
    expect(
      (
        await t.api
          .post('/api/v1/oauth/register')
          .send({ redirect_uris: ['http://127.0.0.1:8765/cb'], token_endpoint_auth_method: 'none' })
      ).status,
    ).toBe(201);
  });

  it('limits registrations per source address', async () => {
    await using t = await createTestBackend(database(), withRegistration(2));
    const register = () =>
      t.api.post('/api/v1/oauth/register').send({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    expect((await register()).status).toBe(201);
    expect((await register()).status).toBe(201);
    const refused = await register();
    expect(refused.status).toBe(429);
  });
});
