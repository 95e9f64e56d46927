import type supertest from 'supertest';
import { expect } from 'vitest';
import { TEST_PASSWORD, type TestUser } from './identity.fixtures.js';
import { API_AUDIENCE } from './oauth.fixtures.js';

/** A fresh single-use step-up proof (`x-reauth-token`) for `user`, from `POST /api/v1/auth/reauth`. */
export async function stepUpProof(api: supertest.Agent, user: TestUser): Promise<string> {
  const res = await api
    .post('/api/v1/auth/reauth')
    .set(user.auth)
    .send({ method: 'PASSWORD', password: TEST_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.reAuthToken as string;
}

/** Creates an organization client_credentials client as its admin; returns its id and secret. */
export async function createMachineClient(
  api: supertest.Agent,
  admin: TestUser,
  organizationId: string,
  roles: string[] = ['ORG_MEMBER'],
): Promise<{ clientId: string; secret: string }> {
  const res = await api
    .post(`/api/v1/organizations/${organizationId}/oauth-clients`)
    .set(admin.auth)
    .send({ clientName: 'sync', grantTypes: ['client_credentials'], roles });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { clientId: res.body.data._id as string, secret: res.body.data.plainSecret as string };
}

/** A client_credentials token for `resource` (default: the REST API), as a whole `Authorization` value. */
export async function clientCredentialsToken(
  api: supertest.Agent,
  client: { clientId: string; secret: string },
  resource = API_AUDIENCE,
): Promise<string> {
  const res = await api
    .post('/api/v1/oauth/token')
    .auth(client.clientId, client.secret)
    .type('form')
    .send({ grant_type: 'client_credentials', resource });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return `Bearer ${res.body.access_token as string}`;
}
