import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, signUp, useToken, type TestUser } from '../../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';

const database = useTestDatabase();

describe('leaving an organization', () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await createTestBackend(database());
  });
  afterAll(() => t.close());

  const leave = (person: TestUser, organizationId: string, who = 'me') =>
    t.api.delete(`/api/v1/organizations/${organizationId}/members/${who}`).set(person.auth);
  const memberIds = async (admin: TestUser, organizationId: string) =>
    (
      (await t.api.get(`/api/v1/organizations/${organizationId}/members`).set(admin.auth)).body.data as {
        userId: string;
      }[]
    ).map((m) => m.userId);

  async function organizationWithMember(role = 'ORG_MEMBER') {
    const admin = await signUp(t.api, 'admin');
    const organizationId = await createOrganization(t.api, admin);
    const member = await signUp(t.api, 'member');
    await addMember(t.api, admin, organizationId, member, role);
    return { admin, organizationId, member };
  }

  it('lets a member leave with members/me: their old token stops, the fresh one reaches nothing there', async () => {
    const { admin, organizationId, member } = await organizationWithMember();
    expect((await t.api.get(`/api/v1/organizations/${organizationId}/todos`).set(member.auth)).status).toBe(200);
    const before = member.auth;
    const left = await leave(member, organizationId);
    expect(left.status).toBe(200);
    expect(left.body.data).toMatchObject({ userId: member.userId, removed: true, tokenType: 'Bearer' });
    const stale = await t.api.get('/api/v1/auth/me').set(before);
    expect(stale.status).toBe(401);
    expect(stale.body.error.reason).toBe('credential_invalid');
    useToken(member, left.body.data.accessToken as string);
    expect((await t.api.get('/api/v1/auth/me').set(member.auth)).status).toBe(200);
    expect((await t.api.get(`/api/v1/organizations/${organizationId}/todos`).set(member.auth)).status).toBe(404);
    expect(await memberIds(admin, organizationId)).toEqual([admin.userId]);
  });

  it('lets a member leave with their own id, but not remove someone else', async () => {
    const { admin, organizationId, member } = await organizationWithMember('ORG_MANAGER');
    const refused = await leave(member, organizationId, admin.userId);
    expect(refused.status).toBe(403);
    expect(refused.body.error.reason).toBe('role_refused');
    expect((await leave(member, organizationId, member.userId)).status).toBe(200);
    expect(await memberIds(admin, organizationId)).toEqual([admin.userId]);
  });

  it('refuses the last ORG_ADMIN, who may leave once another member is ORG_ADMIN', async () => {
    const { admin, organizationId, member } = await organizationWithMember();
    const refused = await leave(admin, organizationId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      'An organization needs at least one ORG_ADMIN: make another member ORG_ADMIN first.',
    );
    expect(await memberIds(admin, organizationId)).toContain(admin.userId);
    expect(
      (
        await t.api
          .put(`/api/v1/organizations/${organizationId}/members/${member.userId}`)
          .set(admin.auth)
          .send({ role: 'ORG_ADMIN' })
      ).status,
    ).toBe(200);
    expect((await leave(admin, organizationId)).status).toBe(200);
  });

  it('answers a non-member as not found', async () => {
    const { organizationId } = await organizationWithMember();
    const outsider = await signUp(t.api, 'outsider');
    expect((await leave(outsider, organizationId)).status).toBe(404);
  });
});
