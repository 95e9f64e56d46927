import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createOrganization, signUp, TEST_PASSWORD, type TestUser } from '../../testing/identity.fixtures.js';
import { API_AUDIENCE, MCP_AUDIENCE } from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { createLogger } from '../logging/index.js';

const database = useTestDatabase();

async function organizationClient(t: TestBackend, roles = ['ORG_MEMBER']) {
  const admin = await signUp(t.api, 'admin');
  const orgId = await createOrganization(t.api, admin);
  const created = await t.api
    .post(`/api/v1/organizations/${orgId}/oauth-clients`)
    .set(admin.auth)
    .send({
      clientName: 'Nightly sync',
      grantTypes: ['client_credentials'],
      roles,
    });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return {
    admin,
    orgId,
    clientId: created.body.data._id as string,
    secret: created.body.data.plainSecret as string,
    record: created.body.data,
  };
}

function clientCredentials(
  t: TestBackend,
  clientId: string,
  secret: string,
  resource: string | undefined = API_AUDIENCE,
) {
  return t.api
    .post('/api/v1/oauth/token')
    .auth(clientId, secret)
    .type('form')
    .send({ grant_type: 'client_credentials', ...(resource ? { resource } : {}) });
}

async function reauth(t: TestBackend, user: TestUser): Promise<string> {
  return (await t.api.post('/api/v1/auth/reauth').set(user.auth).send({ method: 'PASSWORD', password: TEST_PASSWORD }))
    .body.data.reAuthToken;
}

describe('client_credentials', () => {
  it('shows the client secret once and never again', async () => {
    await using t = await createTestBackend(database());
    const { admin, orgId, clientId, secret } = await organizationClient(t);
    expect(secret).toMatch(/^wcs_/);
    const read = await t.api.get(`/api/v1/organizations/${orgId}/oauth-clients/${clientId}`).set(admin.auth);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(secret.slice(4));
    expect(JSON.stringify(read.body)).not.toMatch(/"secrets"|plainSecret|hash/);
  });

  it('issues a signed snapshot of the client’s roles and organization for a known audience', async () => {
    await using t = await createTestBackend(database());
    const { orgId, clientId, secret } = await organizationClient(t);
    const res = await clientCredentials(t, clientId, secret);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(res.body.refresh_token).toBeUndefined();
    expect(decodeJwt(res.body.access_token)).toMatchObject({
      aud: API_AUDIENCE,
      sub: clientId,
      org: orgId,
      roles: ['ORG_MEMBER'],
      wildo_principal: 'ORGANIZATION_MACHINE',
    });
    const todos = await t.api
      .post(`/api/v1/organizations/${orgId}/todos`)
      .set('Authorization', `Bearer ${res.body.access_token}`)
      .send({ title: 'from a service' });
    expect(todos.status).toBe(201);
    expect(todos.body.data.createdByUserId).toBeNull();
  });

  it('cannot reach another organization’s records with its token', async () => {
    await using t = await createTestBackend(database());
    const a = await organizationClient(t);
    const b = await organizationClient(t);
    const todoB = (await t.api.post(`/api/v1/organizations/${b.orgId}/todos`).set(b.admin.auth).send({ title: 'B' }))
      .body.data;
    const token = (await clientCredentials(t, a.clientId, a.secret)).body.access_token;
    expect(
      (await t.api.get(`/api/v1/organizations/${a.orgId}/todos`).set('Authorization', `Bearer ${token}`)).status,
    ).toBe(200);
    expect(
      (await t.api.get(`/api/v1/organizations/${b.orgId}/todos/${todoB._id}`).set('Authorization', `Bearer ${token}`))
        .status,
    ).toBe(404);
  });

  it('refuses a wrong secret, an unknown client and an unknown audience', async () => {
    await using t = await createTestBackend(database());
    const { clientId, secret } = await organizationClient(t);
    const wrong = await clientCredentials(t, clientId, `${secret}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
    expect((await clientCredentials(t, '00000000-0000-4000-8000-000000000000', secret)).body.error).toBe(
      'invalid_client',
    );
    const target = await clientCredentials(t, clientId, secret, 'https://elsewhere.example/api');
    expect(target.body.error).toBe('invalid_target');
    expect((await clientCredentials(t, clientId, secret, MCP_AUDIENCE)).status).toBe(200);
  });

  it('ignores a requested lifetime: the configured one applies', async () => {
    await using t = await createTestBackend(database());
    const { clientId, secret } = await organizationClient(t);
    const res = await t.api
      .post('/api/v1/oauth/token')
      .auth(clientId, secret)
      .type('form')
      .send({ grant_type: 'client_credentials', resource: API_AUDIENCE, expires_in: '999999' });
    expect(res.body.expires_in).toBe(900);
  });

  it('refuses malformed token requests with RFC 6749 errors', async () => {
    await using t = await createTestBackend(database());
    const { clientId, secret } = await organizationClient(t);
    expect(
      (await t.api.post('/api/v1/oauth/token').auth(clientId, secret).type('form').send({ grant_type: 'password' }))
        .body.error,
    ).toBe('unsupported_grant_type');
    expect(
      (
        await t.api
          .post('/api/v1/oauth/token')
          .auth(clientId, secret)
          .type('form')
          .send('grant_type=client_credentials&grant_type=client_credentials')
      ).body.error,
    ).toBe('invalid_request');
    expect(
      (await t.api.post('/api/v1/oauth/token').auth(clientId, secret).send({ grant_type: 'client_credentials' })).body
        .error,
    ).toBe('invalid_request');
    const noGrant = await t.api
      .post('/api/v1/oauth/token')
      .auth(clientId, secret)
      .type('form')
      .send({ grant_type: 'authorization_code', code: 'x' });
    expect(noGrant.body.error).toBe('unauthorized_client');
  });

  it('refuses roles outside the organization’s role set for a new client', async () => {
    await using t = await createTestBackend(database());
    const { admin, orgId } = await organizationClient(t);
    const refused = await t.api
      .post(`/api/v1/organizations/${orgId}/oauth-clients`)
      .set(admin.auth)
      .send({ clientName: 'x', grantTypes: ['client_credentials'], roles: ['APP_ADMIN'] });
    expect(refused.status).toBe(400);
  });

  it('rotates the secret: the old one works until the cutoff, then only the new one', async () => {
    let now = Date.now();
    await using t = await createTestBackend(database(), { clock: { now: () => new Date(now) } });
    const { admin, orgId, clientId, secret } = await organizationClient(t);
    const cutoff = new Date(now + 5 * 60_000).toISOString();
    const rotated = await t.api
      .post(`/api/v1/organizations/${orgId}/oauth-clients/${clientId}/rotate`)
      .set(admin.auth)
      .set('x-reauth-token', await reauth(t, admin))
      .send({ oldKeyInvalidationDate: cutoff });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const fresh = rotated.body.data.plainSecret as string;
    expect((await clientCredentials(t, clientId, secret)).status).toBe(200);
    expect((await clientCredentials(t, clientId, fresh)).status).toBe(200);
    now += 6 * 60_000;
    expect((await clientCredentials(t, clientId, secret)).status).toBe(401);
    expect((await clientCredentials(t, clientId, fresh)).status).toBe(200);
  });

  it('never writes a client secret to the log', async () => {
    const lines: string[] = [];
    await using t = await createTestBackend(database(), {
      logger: createLogger({ level: 'debug', destination: { write: (l: string) => void lines.push(l) } }),
    });
    const { admin, orgId, clientId, secret } = await organizationClient(t);
    await clientCredentials(t, clientId, secret);
    await clientCredentials(t, clientId, `${secret}x`);
    const regenerated = await t.api
      .post(`/api/v1/organizations/${orgId}/oauth-clients/${clientId}/regenerate`)
      .set(admin.auth)
      .send({});
    const rotated = await t.api
      .post(`/api/v1/organizations/${orgId}/oauth-clients/${clientId}/rotate`)
      .set(admin.auth)
      .set('x-reauth-token', await reauth(t, admin))
      .send({});
    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const value of [secret, regenerated.body.data.plainSecret, rotated.body.data.plainSecret])
      expect(log).not.toContain(String(value).slice(4));
  });
});
