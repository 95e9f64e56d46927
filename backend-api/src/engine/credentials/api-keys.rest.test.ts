import { describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganization,
  signUp,
  signUpAppAdmin,
  TEST_PASSWORD,
  type TestUser,
} from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { createLogger } from '../logging/index.js';

const database = useTestDatabase();

async function adminWithOrg(t: TestBackend) {
  const admin = await signUp(t.api, 'admin');
  const orgId = await createOrganization(t.api, admin);
  return {
    admin,
    orgId,
    keys: `/api/v1/organizations/${orgId}/api-keys`,
    todos: `/api/v1/organizations/${orgId}/todos`,
  };
}

async function createKey(
  t: TestBackend,
  user: TestUser,
  keysPath: string,
  body: Record<string, unknown> = { name: 'CI', roles: ['ORG_MEMBER'] },
) {
  const res = await t.api.post(keysPath).set(user.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { _id: string; plainKey: string; keyPrefix: string };
}

async function reauth(t: TestBackend, user: TestUser): Promise<string> {
  const res = await t.api
    .post('/api/v1/auth/reauth')
    .set(user.auth)
    .send({ method: 'PASSWORD', password: TEST_PASSWORD });
  expect(res.status).toBe(200);
  return res.body.data.reAuthToken as string;
}

describe('organization API keys', () => {
  it('show the plaintext key once, store only its hash, and never return it again', async () => {
    await using t = await createTestBackend(database());
    const { admin, keys } = await adminWithOrg(t);
    const key = await createKey(t, admin, keys);
    expect(key.plainKey).toMatch(/^sk_org_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(key.plainKey.startsWith(key.keyPrefix.replace('…', ''))).toBe(true);
    const read = await t.api.get(`${keys}/${key._id}`).set(admin.auth);
    const list = await t.api.get(keys).set(admin.auth);
    for (const body of [read.body, list.body]) {
      expect(JSON.stringify(body)).not.toContain(key.plainKey.slice(-20));
      expect(JSON.stringify(body)).not.toMatch(/hashedKey|plainKey/);
    }
  });

  it('authenticate as an organization machine with the key’s roles, without Bearer', async () => {
    await using t = await createTestBackend(database());
    const { admin, keys, todos } = await adminWithOrg(t);
    const key = await createKey(t, admin, keys);
    const created = await t.api.post(todos).set('Authorization', key.plainKey).send({ title: 'by a machine' });
    expect(created.status).toBe(201);
    expect(created.body.data.createdByUserId).toBeNull();
    const refused = await t.api.delete(`${todos}/${created.body.data._id}`).set('Authorization', key.plainKey);
    expect(refused.status).toBe(403);
    expect(refused.body.error.reason).toBe('role_refused');
  });

  it('refuse a wrong, malformed or Bearer-wrapped key', async () => {
    await using t = await createTestBackend(database());
    const { admin, keys, todos } = await adminWithOrg(t);
    const key = await createKey(t, admin, keys);
    expect((await t.api.get(todos).set('Authorization', key.plainKey)).status).toBe(200);
    const wrongSecret = `${key.plainKey.slice(0, -4)}${key.plainKey.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    for (const value of [wrongSecret, `Bearer ${key.plainKey}`, 'sk_org_garbage']) {
      const res = await t.api.get(todos).set('Authorization', value);
      expect(res.status, value.slice(0, 12)).toBe(401);
    }
  });

  it('cannot reach another organization’s records', async () => {
    await using t = await createTestBackend(database());
    const a = await adminWithOrg(t);
    const b = await adminWithOrg(t);
    const keyA = await createKey(t, a.admin, a.keys);
    const todoB = (await t.api.post(b.todos).set(b.admin.auth).send({ title: 'B only' })).body.data;
    expect((await t.api.get(a.todos).set('Authorization', keyA.plainKey)).status).toBe(200);
    const res = await t.api.get(`${b.todos}/${todoB._id}`).set('Authorization', keyA.plainKey);
    expect(res.status).toBe(404);
    expect((await t.api.get(b.todos).set('Authorization', keyA.plainKey)).status).toBe(404);
  });

  it('refuse roles above the creator’s own', async () => {
    await using t = await createTestBackend(database());
    const { admin, orgId, keys } = await adminWithOrg(t);
    const manager = await signUp(t.api, 'manager');
    await addMember(t.api, admin, orgId, manager, 'ORG_MANAGER');
    await createKey(t, manager, keys, { name: 'ok', roles: ['ORG_MANAGER'] });
    const res = await t.api
      .post(keys)
      .set(manager.auth)
      .send({ name: 'too much', roles: ['ORG_ADMIN'] });
    expect(res.status).toBe(403);
    expect(res.body.error.reason).toBe('role_refused');
  });

  it('stop working as soon as they are deleted', async () => {
    await using t = await createTestBackend(database());
    const { admin, keys, todos } = await adminWithOrg(t);
    const key = await createKey(t, admin, keys);
    expect((await t.api.get(todos).set('Authorization', key.plainKey)).status).toBe(200);
    expect((await t.api.delete(`${keys}/${key._id}`).set(admin.auth)).status).toBe(200);
    expect((await t.api.get(todos).set('Authorization', key.plainKey)).status).toBe(401);
  });

  it('stop working after their expiry', async () => {
    let now = Date.now();
    await using t = await createTestBackend(database(), { clock: { now: () => new Date(now) } });
    const { admin, keys, todos } = await adminWithOrg(t);
    const key = await createKey(t, admin, keys, {
      name: 'short',
      roles: ['ORG_MEMBER'],
      expiresAt: new Date(now + 60_000).toISOString(),
    });
    expect((await t.api.get(todos).set('Authorization', key.plainKey)).status).toBe(200);
    now += 61_000;
    expect((await t.api.get(todos).set('Authorization', key.plainKey)).status).toBe(401);
  });
});

describe('rotating and regenerating API keys', () => {
  it('refuse rotation without a step-up proof, with a used one and with an expired one', async () => {
    let now = Date.now();
    await using t = await createTestBackend(database(), { clock: { now: () => new Date(now) } });
    const { admin, keys } = await adminWithOrg(t);
    const key = await createKey(t, admin, keys);
    const rotate = (proof?: string, id = key._id) => {
      const req = t.api.post(`${keys}/${id}/rotate`).set(admin.auth);
      return (proof ? req.set('x-reauth-token', proof) : req).send({});
    };
    const missing = await rotate();
    expect(missing.status).toBe(403);
    expect(missing.body.error.reason).toBe('step_up_required');
    const expiring = await reauth(t, admin);
    now += 6 * 60_000;
    expect((await rotate(expiring)).status).toBe(403);
    const proof = await reauth(t, admin);
    const rotated = await rotate(proof);
    expect(rotated.status).toBe(200);
    // The replacement can be rotated, but not with the proof already spent.
    const reused = await rotate(proof, rotated.body.data._id);
    expect(reused.status).toBe(403);
    expect(reused.body.error.reason).toBe('step_up_required');
  });

  it('refuse a reauth with a wrong password', async () => {
    await using t = await createTestBackend(database());
    const { admin } = await adminWithOrg(t);
    const res = await t.api
      .post('/api/v1/auth/reauth')
      .set(admin.auth)
      .send({ method: 'PASSWORD', password: 'not my password' });
    expect(res.status).toBe(401);
  });

  it('keep the old key until the cutoff, then refuse it; the new key works', async () => {
    let now = Date.now();
    await using t = await createTestBackend(database(), { clock: { now: () => new Date(now) } });
    const { admin, keys, todos } = await adminWithOrg(t);
    const old = await createKey(t, admin, keys);
    const cutoff = new Date(now + 10 * 60_000).toISOString();
    const rotated = await t.api
      .post(`${keys}/${old._id}/rotate`)
      .set(admin.auth)
      .set('x-reauth-token', await reauth(t, admin))
      .send({ oldKeyInvalidationDate: cutoff });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.data).toMatchObject({
      oldKeyId: old._id,
      oldKeyInvalidationDate: cutoff,
      roles: ['ORG_MEMBER'],
    });
    const fresh = rotated.body.data.plainKey as string;
    expect(fresh).not.toBe(old.plainKey);
    expect((await t.api.get(todos).set('Authorization', old.plainKey)).status).toBe(200);
    expect((await t.api.get(todos).set('Authorization', fresh)).status).toBe(200);
    now += 11 * 60_000;
    expect((await t.api.get(todos).set('Authorization', old.plainKey)).status).toBe(401);
    expect((await t.api.get(todos).set('Authorization', fresh)).status).toBe(200);
  });

  it('retire the old key at once when no cutoff is given', async () => {
    await using t = await createTestBackend(database());
    const { admin, keys, todos } = await adminWithOrg(t);
    const old = await createKey(t, admin, keys);
    const rotated = await t.api
      .post(`${keys}/${old._id}/rotate`)
      .set(admin.auth)
      .set('x-reauth-token', await reauth(t, admin))
      .send({});
    expect(rotated.status).toBe(200);
    expect((await t.api.get(todos).set('Authorization', old.plainKey)).status).toBe(401);
    expect((await t.api.get(todos).set('Authorization', rotated.body.data.plainKey)).status).toBe(200);
  });

  it('regenerate without step-up and keep the old key valid', async () => {
    await using t = await createTestBackend(database());
    const { admin, keys, todos } = await adminWithOrg(t);
    const old = await createKey(t, admin, keys);
    const regenerated = await t.api.post(`${keys}/${old._id}/regenerate`).set(admin.auth).send({});
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.data).toMatchObject({ previousKeyId: old._id, roles: ['ORG_MEMBER'] });
    expect((await t.api.get(todos).set('Authorization', old.plainKey)).status).toBe(200);
    expect((await t.api.get(todos).set('Authorization', regenerated.body.data.plainKey)).status).toBe(200);
  });

  it('refuse rotation to a manager (ORG_ADMIN only) and to a machine principal', async () => {
    await using t = await createTestBackend(database());
    const { admin, orgId, keys } = await adminWithOrg(t);
    const manager = await signUp(t.api, 'manager');
    await addMember(t.api, admin, orgId, manager, 'ORG_MANAGER');
    const key = await createKey(t, admin, keys, { name: 'admin key', roles: ['ORG_ADMIN'] });
    const byManager = await t.api
      .post(`${keys}/${key._id}/rotate`)
      .set(manager.auth)
      .set('x-reauth-token', await reauth(t, manager))
      .send({});
    expect(byManager.status).toBe(403);
    const byMachine = await t.api.post(`${keys}/${key._id}/rotate`).set('Authorization', key.plainKey).send({});
    expect(byMachine.status).toBe(403);
    expect(byMachine.body.error.reason).toBe('principal_not_allowed');
  });
});

describe('secrets in logs', () => {
  it('never writes a plaintext key to the log, across create, authenticate, rotate and regenerate', async () => {
    const lines: string[] = [];
    await using t = await createTestBackend(database(), {
      logger: createLogger({ level: 'debug', destination: { write: (l: string) => void lines.push(l) } }),
    });
    const { admin, keys, todos } = await adminWithOrg(t);
    const key = await createKey(t, admin, keys);
    await t.api.get(todos).set('Authorization', key.plainKey);
    await t.api.get(todos).set('Authorization', `${key.plainKey}x`);
    const rotated = await t.api
      .post(`${keys}/${key._id}/rotate`)
      .set(admin.auth)
      .set('x-reauth-token', await reauth(t, admin))
      .send({});
    const regenerated = await t.api.post(`${keys}/${rotated.body.data._id}/regenerate`).set(admin.auth).send({});
    const secrets = [key.plainKey, rotated.body.data.plainKey, regenerated.body.data.plainKey].map((k: string) =>
      k.slice(-43),
    );
    expect(lines.length).toBeGreaterThan(5);
    const log = lines.join('\n');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});

describe('application API keys', () => {
  it('act as an application machine on application resources, and reach no organization', async () => {
    await using t = await createTestBackend(database());
    const admin = await signUpAppAdmin(t);
    const created = await t.api
      .post('/api/v1/api-keys')
      .set(admin.auth)
      .send({ name: 'Announcer', roles: ['APP_ADMIN'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = created.body.data.plainKey as string;
    expect(key).toMatch(/^sk_app_/);
    const announced = await t.api
      .post('/api/v1/announcements')
      .set('Authorization', key)
      .send({ title: 'Maintenance', body: 'Tonight' });
    expect(announced.status).toBe(201);
    expect(announced.body.data.createdByUserId).toBeNull();
    const owner = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner);
    expect((await t.api.get(`/api/v1/organizations/${orgId}/todos`).set('Authorization', key)).status).toBe(404);
    const user = await signUp(t.api);
    expect(
      (
        await t.api
          .post('/api/v1/api-keys')
          .set(user.auth)
          .send({ name: 'x', roles: ['APP_USER'] })
      ).status,
    ).toBe(403);
  });
});
