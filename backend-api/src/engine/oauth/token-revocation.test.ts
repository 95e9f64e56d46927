import { CoreResourceOperation, ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, createMachineClient, stepUpProof } from '../../testing/credentials.fixtures.js';
import { addMember, createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { handshake, MCP_BACKEND_OPTIONS, MCP_PATH, rpc } from '../../testing/mcp.fixtures.js';
import { delegateTo, REDIRECT_URI, registerPublicClient } from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import { CREDENTIAL_RESOURCE_TYPES } from '../credentials/credentials.resource-types.js';
import type { ExecutionContext } from '../resources/execution-context.js';
import type { ServicesRegistryHandler } from '../resources/services-registry-handler.service.js';

const database = useTestDatabase();
let t: TestBackend;
let admin: TestUser;
let orgId: string;

beforeAll(async () => {
  t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
  admin = await signUp(t.api, 'admin');
  orgId = await createOrganization(t.api, admin);
});

afterAll(async () => {
  await t.close();
});

/** The organization admin's execution context, for calls straight into the service pipeline. */
function adminContext(): ExecutionContext {
  return {
    executionType: ExecutionContext_ExecutionType.USER,
    initiatorIds: { userId: admin.userId, organizationId: orgId },
    initiatorRoles: ['ORG_ADMIN', 'ORG_MANAGER', 'ORG_MEMBER'],
    tenant: { kind: 'organization', organizationId: orgId },
    surface: 'internal',
    requestId: 'revocation-test',
    callTimestamp: new Date().toISOString(),
  };
}

const clients = () => `/api/v1/organizations/${orgId}/oauth-clients`;
const keys = () => `/api/v1/organizations/${orgId}/api-keys`;
const todos = () => `/api/v1/organizations/${orgId}/todos`;

/** Status of a REST call with this `Authorization`. */
async function rest(authorization: string): Promise<number> {
  return (await t.api.get(todos()).set('Authorization', authorization)).status;
}

/** Status of an MCP `tools/list` with this `Authorization`. */
async function mcp(authorization: string): Promise<number> {
  return (await handshake(t.api, MCP_PATH, rpc('tools/list'), authorization)).status;
}

async function machineClient(): Promise<{ id: string; token: string }> {
  const client = await createMachineClient(t.api, admin, orgId);
  return { id: client.clientId, token: await clientCredentialsToken(t.api, client) };
}

async function delegatedClient(): Promise<string> {
  const created = await t.api
    .post(clients())
    .set(admin.auth)
    .send({
      clientName: 'tool',
      grantTypes: ['authorization_code'],
      redirectUris: [REDIRECT_URI],
      tokenEndpointAuthMethod: 'none',
    });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data._id as string;
}

const delegate = (person: TestUser, clientId: string, remember = false) =>
  delegateTo(t.api, person, clientId, { remember });

async function apiKey(): Promise<{ id: string; key: string }> {
  const created = await t.api
    .post(keys())
    .set(admin.auth)
    .send({ name: 'integration', roles: ['ORG_MEMBER'] });
  expect(created.status).toBe(201);
  return { id: created.body.data._id, key: created.body.data.plainKey };
}

describe('deleting an OAuth client', () => {
  it('refuses its client_credentials token at once, even verified before; another client’s token still works', async () => {
    const [doomed, kept] = [await machineClient(), await machineClient()];
    expect(await rest(doomed.token)).toBe(200);
    expect((await t.api.delete(`${clients()}/${doomed.id}`).set(admin.auth)).status).toBe(200);
    const refused = await t.api.get(todos()).set('Authorization', doomed.token);
    expect(refused.status).toBe(401);
    expect(refused.body.error.reason).toBe('credential_invalid');
    expect(await rest(kept.token)).toBe(200);
  });

  it('refuses the tokens people delegated to it; a token delegated to another client still works', async () => {
    const [doomed, kept] = [await delegatedClient(), await delegatedClient()];
    const [lost, still] = [await delegate(admin, doomed), await delegate(admin, kept)];
    expect(await mcp(lost)).toBe(200);
    expect((await t.api.delete(`${clients()}/${doomed}`).set(admin.auth)).status).toBe(200);
    expect(await mcp(lost)).toBe(401);
    expect(await mcp(still)).toBe(200);
  });

  it('is rolled back when its revocation cannot be recorded: the client and its token still work', async () => {
    const client = await machineClient();
    const services = t.backend.container.get<ServicesRegistryHandler>(SAAS_SERVICE_TYPES.ServicesRegistryHandler);
    const context = adminContext();
    await database().query('ALTER TABLE wildo_token_revocations RENAME TO wildo_token_revocations_aside');
    try {
      await expect(
        services.executeCoreOperation(
          CREDENTIAL_RESOURCE_TYPES.ORGANIZATION_OAUTH_CLIENTS,
          CoreResourceOperation.DELETE,
          context,
          client.id,
        ),
      ).rejects.toThrow();
    } finally {
      await database().query('ALTER TABLE wildo_token_revocations_aside RENAME TO wildo_token_revocations');
    }
    expect((await t.api.get(`${clients()}/${client.id}`).set(admin.auth)).status).toBe(200);
    expect(await rest(client.token)).toBe(200);
  });

  it('through RFC 7592 (a self-registered client) refuses its delegated tokens too', async () => {
    const registered = await t.api
      .post('/api/v1/oauth/register')
      .send({ client_name: 'Tool', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    expect(registered.status).toBe(201);
    const other = await registerPublicClient(t.api);
    const [lost, still] = [await delegate(admin, registered.body.client_id), await delegate(admin, other)];
    expect(await mcp(lost)).toBe(200);
    const uri = new URL(registered.body.registration_client_uri);
    const removed = await t.api
      .delete(uri.pathname)
      .set('Authorization', `Bearer ${registered.body.registration_access_token}`);
    expect(removed.status).toBe(204);
    expect(await mcp(lost)).toBe(401);
    expect(await mcp(still)).toBe(200);
  });
});

describe('withdrawing a remembered consent', () => {
  it('refuses the token it let the client obtain; the person’s token for another client still works', async () => {
    const person = await signUp(t.api, 'person');
    const [withdrawn, kept] = [await registerPublicClient(t.api), await registerPublicClient(t.api)];
    const [lost, still] = [await delegate(person, withdrawn, true), await delegate(person, kept, true)];
    expect(await mcp(lost)).toBe(200);
    const grants = await t.api.get('/api/v1/oauth-consent-grants').query({ clientId: withdrawn }).set(person.auth);
    expect(grants.body.data).toHaveLength(1);
    expect(
      (await t.api.delete(`/api/v1/oauth-consent-grants/${grants.body.data[0]._id}`).set(person.auth)).status,
    ).toBe(200);
    expect(await mcp(lost)).toBe(401);
    expect(await mcp(still)).toBe(200);
  });
});

describe('API keys', () => {
  it('refuses a deleted key at once on REST and MCP; another key still works', async () => {
    const [doomed, kept] = [await apiKey(), await apiKey()];
    expect(await rest(doomed.key)).toBe(200);
    expect(await mcp(doomed.key)).toBe(200);
    expect((await t.api.delete(`${keys()}/${doomed.id}`).set(admin.auth)).status).toBe(200);
    expect(await rest(doomed.key)).toBe(401);
    expect(await mcp(doomed.key)).toBe(401);
    expect(await rest(kept.key)).toBe(200);
  });

  it('refuses the old key of a rotation with its cutoff now; the new key works', async () => {
    const old = await apiKey();
    expect(await rest(old.key)).toBe(200);
    const proof = await stepUpProof(t.api, admin);
    const rotated = await t.api
      .post(`${keys()}/${old.id}/rotate`)
      .set(admin.auth)
      .set('x-reauth-token', proof)
      .send({ oldKeyInvalidationDate: new Date().toISOString() });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(await rest(old.key)).toBe(401);
    expect(await rest(rotated.body.data.plainKey)).toBe(200);
  });
});

describe('removing a member', () => {
  it('refuses their first-party token and their delegated MCP token; another member’s still work', async () => {
    const [leaving, staying] = [await signUp(t.api, 'leaving'), await signUp(t.api, 'staying')];
    await addMember(t.api, admin, orgId, leaving, 'ORG_MEMBER');
    await addMember(t.api, admin, orgId, staying, 'ORG_MEMBER');
    const tool = await registerPublicClient(t.api);
    const [lost, still] = [await delegate(leaving, tool), await delegate(staying, tool)];
    expect(await rest(leaving.auth.Authorization)).toBe(200);
    expect(await mcp(lost)).toBe(200);
    expect(
      (await t.api.delete(`/api/v1/organizations/${orgId}/members/${leaving.userId}`).set(admin.auth)).status,
    ).toBe(200);
    expect(await rest(leaving.auth.Authorization)).toBe(401);
    expect(await mcp(lost)).toBe(401);
    expect(await rest(staying.auth.Authorization)).toBe(200);
    expect(await mcp(still)).toBe(200);
  });
});
