import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptInvitation,
  addMember,
  createOrganization,
  invite,
  mailedLinkToken,
  signInAgain,
  signUp,
  TEST_PASSWORD,
  type TestUser,
} from '../../../testing/identity.fixtures.js';
import { ManualClock } from '../../../testing/manual-clock.js';
import { callTool, delegatedToken, MCP_BACKEND_OPTIONS, MCP_PATH, toolError } from '../../../testing/mcp.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../../container/saas-service-types.tokens.js';
import type { PrincipalDirectory } from '../principal-directory.js';

const database = useTestDatabase();

describe('invitations', () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
  });
  afterAll(() => t.close());

  const received = (person: TestUser) => t.api.get('/api/v1/invitations').set(person.auth);
  const sent = (admin: TestUser, organizationId: string) =>
    t.api.get(`/api/v1/organizations/${organizationId}/invitations`).set(admin.auth);
  const accept = (person: TestUser, id: string) => t.api.post(`/api/v1/invitations/${id}/accept`).set(person.auth);
  const decline = (person: TestUser, id: string) => t.api.post(`/api/v1/invitations/${id}/decline`).set(person.auth);
  const revoke = (admin: TestUser, organizationId: string, id: string) =>
    t.api.post(`/api/v1/organizations/${organizationId}/invitations/${id}/revoke`).set(admin.auth);
  const membershipsOf = async (userId: string) => [
    ...((
      await t.backend.container.get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory).getUser(userId)
    )?.memberships.keys() ?? []),
  ];

  async function organization(label = 'Acme') {
    const admin = await signUp(t.api, 'admin');
    return { admin, organizationId: await createOrganization(t.api, admin, label) };
  }

  it('makes a member only when the invited person accepts, with a fresh token since the old one stops', async () => {
    const { admin, organizationId } = await organization('Acme');
    const person = await signUp(t.api, 'invitee');
    const id = await invite(t.api, admin, organizationId, person.email, 'ORG_MANAGER');
    const mine = await received(person);
    expect(mine.body.data).toEqual([
      expect.objectContaining({
        _id: id,
        organizationId,
        organizationName: 'Acme',
        role: 'ORG_MANAGER',
        invitedBy: admin.email,
      }),
    ]);
    const before = person.auth;
    const accepted = await accept(person, id);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({
      organization: { _id: organizationId, role: 'ORG_MANAGER' },
      tokenType: 'Bearer',
    });
    expect((await t.api.get('/api/v1/auth/me').set(before)).status).toBe(401);
    const fresh = { Authorization: `Bearer ${accepted.body.data.accessToken as string}` };
    expect((await t.api.get(`/api/v1/organizations/${organizationId}/todos`).set(fresh)).status).toBe(200);
    expect(await membershipsOf(person.userId)).toEqual([organizationId]);
    expect((await t.api.get('/api/v1/invitations').set(fresh)).body.data).toEqual([]);
    expect((await sent(admin, organizationId)).body.data).toEqual([
      expect.objectContaining({ _id: id, status: 'accepted', email: person.email }),
    ]);
  });

  it('answers a second acceptance the same, without a second change', async () => {
    const { admin, organizationId } = await organization();
    const person = await signUp(t.api, 'twice');
    const id = await invite(t.api, admin, organizationId, person.email, 'ORG_MEMBER');
    await acceptInvitation(t.api, person, id);
    const firstToken = person.auth;
    const again = await accept(person, id);
    expect(again.status).toBe(200);
    expect(again.body.data.organization).toMatchObject({ _id: organizationId, role: 'ORG_MEMBER' });
    // No second bump: the token from the first acceptance still works.
    expect((await t.api.get('/api/v1/auth/me').set(firstToken)).status).toBe(200);
  });

  it('leaves a person who declines outside, and the declined invitation cannot be accepted later', async () => {
    const { admin, organizationId } = await organization();
    const person = await signUp(t.api, 'decliner');
    const id = await invite(t.api, admin, organizationId, person.email, 'ORG_MEMBER');
    expect((await decline(person, id)).body.data).toEqual({ _id: id, status: 'declined' });
    expect((await decline(person, id)).status).toBe(200);
    expect((await received(person)).body.data).toEqual([]);
    expect((await accept(person, id)).status).toBe(409);
    expect(await membershipsOf(person.userId)).toEqual([]);
    expect((await sent(admin, organizationId)).body.data).toEqual([
      expect.objectContaining({ _id: id, status: 'declined' }),
    ]);
  });

  it('lets an admin revoke a pending invitation, and nobody else', async () => {
    const { admin, organizationId } = await organization();
    const member = await signUp(t.api, 'member');
    await addMember(t.api, admin, organizationId, member, 'ORG_MANAGER');
    const person = await signUp(t.api, 'revoked');
    const id = await invite(t.api, admin, organizationId, person.email, 'ORG_MEMBER');
    const byMember = await revoke(member, organizationId, id);
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.reason).toBe('role_refused');
    expect((await revoke(person, organizationId, id)).status).toBe(404);
    expect((await revoke(admin, organizationId, id)).body.data).toMatchObject({ _id: id, status: 'revoked' });
    expect((await revoke(admin, organizationId, id)).status).toBe(409);
    expect((await received(person)).body.data).toEqual([]);
    expect((await accept(person, id)).status).toBe(409);
    // Revoking frees the email for a new invitation, which works.
    await acceptInvitation(t.api, person, await invite(t.api, admin, organizationId, person.email, 'ORG_MEMBER'));
    expect(await membershipsOf(person.userId)).toEqual([organizationId]);
  });

  it('refuses another account, answered like an unknown invitation; the invited person still can', async () => {
    const { admin, organizationId } = await organization();
    const person = await signUp(t.api, 'rightful');
    const intruder = await signUp(t.api, 'intruder');
    const id = await invite(t.api, admin, organizationId, person.email, 'ORG_MEMBER');
    for (const res of [await accept(intruder, id), await decline(intruder, id), await accept(intruder, randomUUID())]) {
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('No such invitation.');
    }
    expect((await received(intruder)).body.data).toEqual([]);
    expect(await membershipsOf(intruder.userId)).toEqual([]);
    expect((await accept(person, id)).status).toBe(200);
  });

  it('keeps an invitation for an email without an account until its owner signs up through the mailed link and accepts', async () => {
    const { admin, organizationId } = await organization();
    const email = `later-${randomUUID()}@example.test`;
    const invited = await t.api
      .post(`/api/v1/organizations/${organizationId}/invitations`)
      .set(admin.auth)
      .send({ email: email.toUpperCase(), role: 'ORG_ADMIN' });
    expect(invited.status).toBe(201);
    // The address is told, in people's words, where to answer and how to get an account.
    const [mail] = (await t.api.get('/api/v1/dev/outbox').query({ to: email })).body.data;
    expect(mail).toMatchObject({ kind: 'invitation', subject: expect.stringContaining('invited you to') });
    expect(mail.links).toEqual(['http://localhost:4241/account/invitations', 'http://localhost:4241/signup']);

    // Someone else signs up first with the address: nothing exists until the mailed link is opened.
    const squatter = await t.api.post('/api/v1/auth/signup').send({ email, password: 'a squatter’s password' });
    expect(squatter.status).toBe(202);
    expect((await t.api.post('/api/v1/auth/login').send({ email, password: 'a squatter’s password' })).status).toBe(
      401,
    );

    // The owner of the mailbox signs up and opens the link (the fixture's path): the account exists, proven.
    expect((await t.api.post('/api/v1/auth/signup').send({ email, password: TEST_PASSWORD })).status).toBe(202);
    const opened = await t.api.post('/api/v1/auth/verify-email').send({ token: await mailedLinkToken(t.api, email) });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(opened.body.data.user).toMatchObject({ email, emailVerified: true });
    const person: TestUser = {
      userId: opened.body.data.user._id,
      email,
      token: opened.body.data.accessToken,
      auth: { Authorization: `Bearer ${opened.body.data.accessToken as string}` },
    };
    // The squatter's link, opened later, creates nothing: the address already has its account.
    const squatterLink = (await t.api.get('/api/v1/dev/outbox').query({ to: email })).body.data
      .flatMap((m: { links: string[] }) => m.links)
      .map((link: string) => /#token=([\w-]+)/.exec(link)?.[1])
      .filter(Boolean);
    const late = await t.api.post('/api/v1/auth/verify-email').send({ token: squatterLink.at(-1) });
    expect(late.status).toBe(409);
    // Signing up grants nothing: the invitation waits for an explicit acceptance.
    expect(await membershipsOf(person.userId)).toEqual([]);
    expect((await received(person)).body.data).toEqual([
      expect.objectContaining({ _id: invited.body.data._id, organizationId }),
    ]);
    await acceptInvitation(t.api, person, invited.body.data._id as string);
    expect(await membershipsOf(person.userId)).toEqual([organizationId]);
  });

  it('lets only an account that proved its address see, accept or decline an invitation to it', async () => {
    const { admin, organizationId } = await organization();
    const person = await signUp(t.api, 'legacy');
    // An account from before addresses were checked: its address is not proven.
    await database().query('UPDATE wildo_users SET email_verified_at = NULL WHERE id = $1', [person.userId]);
    const id = await invite(t.api, admin, organizationId, person.email, 'ORG_MEMBER');
    expect((await received(person)).body.data).toEqual([]);
    expect((await accept(person, id)).status).toBe(404);
    expect((await decline(person, id)).status).toBe(404);
    expect((await t.api.get('/api/v1/auth/me').set(person.auth)).body.data.user.emailVerified).toBe(false);
    // It asks for a link to its own address and opens it; then the invitation is its to answer.
    const asked = await t.api.post('/api/v1/auth/email-verification').set(person.auth);
    expect(asked.status).toBe(202);
    const opened = await t.api
      .post('/api/v1/auth/verify-email')
      .send({ token: await mailedLinkToken(t.api, person.email) });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.data.user).toMatchObject({ _id: person.userId, emailVerified: true });
    expect(opened.body.data.accessToken).toBeUndefined();
    expect((await received(person)).body.data).toEqual([expect.objectContaining({ _id: id })]);
    await acceptInvitation(t.api, person, id);
    expect(await membershipsOf(person.userId)).toEqual([organizationId]);
  });

  it('answers the same for an email with an account and one without', async () => {
    const { admin, organizationId } = await organization();
    const known = await signUp(t.api, 'known');
    const answer = async (email: string) => {
      const res = await t.api
        .post(`/api/v1/organizations/${organizationId}/invitations`)
        .set(admin.auth)
        .send({ email, role: 'ORG_MEMBER' });
      return {
        status: res.status,
        keys: Object.keys(res.body.data).sort(),
        invitation: res.body.data.status as string,
        body: JSON.stringify(res.body),
      };
    };
    const withAccount = await answer(known.email);
    const withoutAccount = await answer(`unknown-${randomUUID()}@example.test`);
    expect(withAccount.status).toBe(201);
    expect(withAccount.keys).toEqual([
      '_id',
      'createdAt',
      'decidedAt',
      'email',
      'expiresAt',
      'organizationId',
      'role',
      'status',
    ]);
    expect({ ...withoutAccount, body: undefined }).toEqual({ ...withAccount, body: undefined });
    expect(withAccount.body).not.toContain(known.userId);
  });

  it('gives a pending invitee nothing of the organization on any surface until they accept', async () => {
    const { admin, organizationId } = await organization();
    const person = await signUp(t.api, 'pending');
    const id = await invite(t.api, admin, organizationId, person.email, 'ORG_ADMIN');
    for (const path of ['', '/members', '/invitations', '/todos']) {
      expect((await t.api.get(`/api/v1/organizations/${organizationId}${path}`).set(person.auth)).status).toBe(404);
    }
    const mcp = await delegatedToken(t.api, person);
    expect(toolError(await callTool(t.api, MCP_PATH, mcp, 'todos__list', { organizationId }))).toEqual({
      error: 'not_found',
      tool: 'todos__list',
    });
    expect(await membershipsOf(person.userId)).toEqual([]);
    await acceptInvitation(t.api, person, id);
    expect((await t.api.get(`/api/v1/organizations/${organizationId}/todos`).set(person.auth)).status).toBe(200);
  });

  it('lets only an ORG_ADMIN invite', async () => {
    const { admin, organizationId } = await organization();
    const manager = await signUp(t.api, 'manager');
    await addMember(t.api, admin, organizationId, manager, 'ORG_MANAGER');
    const byManager = await t.api
      .post(`/api/v1/organizations/${organizationId}/invitations`)
      .set(manager.auth)
      .send({ email: `x-${randomUUID()}@example.test`, role: 'ORG_MEMBER' });
    expect(byManager.status).toBe(403);
    expect(byManager.body.error.reason).toBe('role_refused');
    // Authorization comes before the request is read: a malformed one is refused the same way.
    expect(
      (await t.api.post(`/api/v1/organizations/${organizationId}/invitations`).set(manager.auth).send({})).status,
    ).toBe(403);
    expect(
      (await t.api.post(`/api/v1/organizations/${organizationId}/invitations`).set(admin.auth).send({})).status,
    ).toBe(400);
    const outsider = await signUp(t.api, 'outsider');
    expect(
      (
        await t.api
          .post(`/api/v1/organizations/${organizationId}/invitations`)
          .set(outsider.auth)
          .send({ email: outsider.email, role: 'ORG_MEMBER' })
      ).status,
    ).toBe(404);
  });

  it('voids an invitation whose inviter no longer holds the role it grants; an admin’s invitation still works', async () => {
    const { admin, organizationId } = await organization();
    const coAdmin = await signUp(t.api, 'co-admin');
    await addMember(t.api, admin, organizationId, coAdmin, 'ORG_ADMIN');
    const promoted = await signUp(t.api, 'promoted');
    const control = await signUp(t.api, 'control');
    const voided = await invite(t.api, coAdmin, organizationId, promoted.email, 'ORG_ADMIN');
    const kept = await invite(t.api, admin, organizationId, control.email, 'ORG_ADMIN');
    expect(
      (
        await t.api
          .put(`/api/v1/organizations/${organizationId}/members/${coAdmin.userId}`)
          .set(admin.auth)
          .send({ role: 'ORG_MEMBER' })
      ).status,
    ).toBe(200);
    expect((await accept(promoted, voided)).status).toBe(409);
    expect(await membershipsOf(promoted.userId)).toEqual([]);
    await acceptInvitation(t.api, control, kept);
    expect((await t.api.get(`/api/v1/organizations/${organizationId}`).set(control.auth)).body.data.role).toBe(
      'ORG_ADMIN',
    );
  });

  it('refuses a second pending invitation and inviting a member', async () => {
    const { admin, organizationId } = await organization();
    const person = await signUp(t.api, 'duplicate');
    await invite(t.api, admin, organizationId, person.email, 'ORG_MEMBER');
    const again = await t.api
      .post(`/api/v1/organizations/${organizationId}/invitations`)
      .set(admin.auth)
      .send({ email: person.email.toUpperCase(), role: 'ORG_MANAGER' });
    expect(again.status).toBe(409);
    const self = await t.api
      .post(`/api/v1/organizations/${organizationId}/invitations`)
      .set(admin.auth)
      .send({ email: admin.email, role: 'ORG_MEMBER' });
    expect(self.status).toBe(409);
    expect(JSON.stringify(self.body)).not.toContain(admin.email);
  });
});

describe('invitation expiry', () => {
  it('expires after the configured lifetime; a fresh invitation can then be sent and accepted', async () => {
    const clock = new ManualClock(new Date('2026-05-01T09:00:00Z'));
    await using t = await createTestBackend(database(), { clock, identity: { invitationLifetimeDays: 2 } });
    let admin = await signUp(t.api, 'admin');
    const organizationId = await createOrganization(t.api, admin);
    let late = await signUp(t.api, 'late');
    let early = await signUp(t.api, 'early');
    const expiring = await invite(t.api, admin, organizationId, late.email, 'ORG_MEMBER');
    const inTime = await invite(t.api, admin, organizationId, early.email, 'ORG_MEMBER');
    clock.advance(47 * 3_600_000);
    [admin, late, early] = await Promise.all([
      signInAgain(t.api, admin),
      signInAgain(t.api, late),
      signInAgain(t.api, early),
    ]);
    await acceptInvitation(t.api, early, inTime);
    clock.advance(2 * 3_600_000);
    late = await signInAgain(t.api, late);
    admin = await signInAgain(t.api, admin);
    expect((await t.api.get('/api/v1/invitations').set(late.auth)).body.data).toEqual([]);
    expect((await t.api.post(`/api/v1/invitations/${expiring}/accept`).set(late.auth)).status).toBe(409);
    const listed = (await t.api.get(`/api/v1/organizations/${organizationId}/invitations`).set(admin.auth)).body.data;
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ _id: expiring, status: 'expired' }),
        expect.objectContaining({ _id: inTime, status: 'accepted' }),
      ]),
    );
    expect(
      (await t.api.post(`/api/v1/organizations/${organizationId}/invitations/${expiring}/revoke`).set(admin.auth))
        .status,
    ).toBe(409);
    await acceptInvitation(t.api, late, await invite(t.api, admin, organizationId, late.email, 'ORG_MEMBER'));
    expect((await t.api.get(`/api/v1/organizations/${organizationId}`).set(late.auth)).status).toBe(200);
  });
});
