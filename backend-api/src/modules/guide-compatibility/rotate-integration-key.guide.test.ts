// The guide's rotation client, run as written against a listening backend: PUT on the key's ROTATE URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganization,
  signUp,
  TEST_PASSWORD,
  type TestUser,
} from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { rotateIntegrationKey } from './rotate-integration-key.guide.js';

const database = useTestDatabase();
let t: TestBackend;
let url: string;
let admin: TestUser;
let manager: TestUser;
let orgId: string;

beforeAll(async () => {
  t = await createTestBackend(database());
  ({ url } = await t.backend.listen(0, '127.0.0.1'));
  admin = await signUp(t.api, 'admin');
  manager = await signUp(t.api, 'manager');
  orgId = await createOrganization(t.api, admin);
  await addMember(t.api, admin, orgId, manager, 'ORG_MANAGER');
});

afterAll(async () => {
  await t.close();
});

async function createKey(): Promise<{ _id: string; plainKey: string }> {
  const res = await t.api
    .post(`/api/v1/organizations/${orgId}/api-keys`)
    .set(admin.auth)
    .send({ name: 'integration', roles: ['ORG_MEMBER'] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const argumentsFor = (user: TestUser, keyId: string, password = TEST_PASSWORD) => ({
  reauthUrl: `${url}/api/v1/auth/reauth`,
  rotateUrl: `${url}/api/v1/organizations/${orgId}/api-keys/${keyId}/rotate`,
  sessionToken: user.token,
  password,
  cutoff: new Date(Date.now() + 3_600_000),
});

const todosWith = (key: string) => t.api.get(`/api/v1/organizations/${orgId}/todos`).set('Authorization', key);

describe('the guide’s rotateIntegrationKey', () => {
  it('replaces the key: the new key works, the old one keeps working until the returned cutoff', async () => {
    const key = await createKey();
    const args = argumentsFor(admin, key._id);
    const replacement = await rotateIntegrationKey(args);
    expect(replacement).toEqual({
      plainKey: expect.stringMatching(/^sk_org_/),
      oldKeyId: key._id,
      oldKeyInvalidationDate: args.cutoff.toISOString(),
    });
    expect((await todosWith(replacement.plainKey)).status).toBe(200);
    expect((await todosWith(key.plainKey)).status).toBe(200);
  });

  it('stops at the proof when the password is wrong, and the key is not rotated', async () => {
    const key = await createKey();
    await expect(rotateIntegrationKey(argumentsFor(admin, key._id, 'not the password'))).rejects.toThrow('HTTP 401');
    const read = await t.api.get(`/api/v1/organizations/${orgId}/api-keys/${key._id}`).set(admin.auth);
    expect(read.body.data.invalidationDate ?? null).toBeNull();
  });

  it('is refused for an organization manager (rotation is the ORG_ADMIN’s), and the key is not rotated', async () => {
    const key = await createKey();
    await expect(rotateIntegrationKey(argumentsFor(manager, key._id))).rejects.toThrow('HTTP 403');
    const read = await t.api.get(`/api/v1/organizations/${orgId}/api-keys/${key._id}`).set(admin.auth);
    expect(read.body.data.invalidationDate ?? null).toBeNull();
  });
});
