import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganization,
  mailedLinkToken,
  signUp,
  TEST_PASSWORD,
} from '../../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase } from '../../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../../container/saas-service-types.tokens.js';
import type { UsersService } from '../users.service.js';

const database = useTestDatabase();

describe('sign-up and sign-in', () => {
  it('signs up, signs in and reads the account', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    const login = await t.api
      .post('/api/v1/auth/login')
      .send({ email: user.email.toUpperCase(), password: TEST_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({
      tokenType: 'Bearer',
      expiresIn: 900,
      user: { _id: user.userId, appRoles: ['APP_USER'] },
    });
    const me = await t.api.get('/api/v1/auth/me').set('Authorization', `Bearer ${login.body.data.accessToken}`);
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(user.email);
    expect(JSON.stringify(me.body)).not.toMatch(/password/i);
  });

  it('answers a sign-up the same for a registered email and a new one; the mail says which', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    const fresh = `fresh-${randomUUID()}@example.test`;
    const again = await t.api
      .post('/api/v1/auth/signup')
      .send({ email: user.email.toUpperCase(), password: 'another long passphrase' });
    const other = await t.api.post('/api/v1/auth/signup').send({ email: fresh, password: TEST_PASSWORD });
    expect(again.status).toBe(202);
    expect({ status: other.status, body: other.body }).toEqual({ status: again.status, body: again.body });
    expect(again.body).toEqual({ data: { status: 'check_email', linkLifetimeHours: 24 } });
    const [toUser] = (await t.api.get('/api/v1/dev/outbox').query({ to: user.email })).body.data;
    expect(toUser).toMatchObject({ kind: 'already-registered', links: ['http://localhost:4241/login'] });
    const [toFresh] = (await t.api.get('/api/v1/dev/outbox').query({ to: fresh })).body.data;
    expect(toFresh).toMatchObject({ kind: 'sign-up', links: [expect.stringMatching(/\/verify-email#token=wev_/)] });
    // The registered account kept its password; a link works once.
    expect((await t.api.post('/api/v1/auth/login').send({ email: user.email, password: TEST_PASSWORD })).status).toBe(
      200,
    );
    const token = await mailedLinkToken(t.api, fresh);
    expect((await t.api.post('/api/v1/auth/verify-email').send({ token })).status).toBe(201);
    const reused = await t.api.post('/api/v1/auth/verify-email').send({ token });
    expect(reused.status).toBe(401);
    expect(reused.body.error.reason).toBe('credential_invalid');
  });

  it('refuses malformed sign-ups without echoing them', async () => {
    await using t = await createTestBackend(database());
    const res = await t.api
      .post('/api/v1/auth/signup')
      .send({ email: 'not-an-email', password: 'short', role: 'APP_ADMIN' });
    expect(res.status).toBe(400);
    expect(res.body.error.problems).toEqual(
      expect.arrayContaining([
        { path: 'email', expected: 'an email address' },
        { path: 'password', expected: 'a string of at least 10 characters' },
        { path: 'role', expected: 'a declared field: email, password, displayName' },
      ]),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/not-an-email|short|APP_ADMIN/);
  });

  it('refuses a wrong password and an unknown account alike', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    const wrong = await t.api.post('/api/v1/auth/login').send({ email: user.email, password: 'wrong password!' });
    const unknown = await t.api
      .post('/api/v1/auth/login')
      .send({ email: `nobody-${user.email}`, password: TEST_PASSWORD });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({
        code: 'UNAUTHENTICATED',
        reason: 'credential_invalid',
        message: 'The email or password is incorrect.',
      });
    }
  });
});

describe('access tokens', () => {
  it('are EdDSA JWTs with kid, verifiable with the published JWKS', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    const jwks = await t.api.get('/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(JSON.stringify(jwks.body)).not.toMatch(/"d"/);
    const { payload, protectedHeader } = await jwtVerify(user.token, createLocalJWKSet(jwks.body), {
      issuer: 'http://localhost:4241',
      audience: 'http://localhost:4241/api/v1',
    });
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt' });
    expect(protectedHeader.kid).toBe(jwks.body.keys[0].kid);
    expect(payload).toMatchObject({ sub: user.userId, av: 1 });
  });

  it('are refused once expired', async () => {
    let now = Date.now();
    await using t = await createTestBackend(database(), { clock: { now: () => new Date(now) } });
    const user = await signUp(t.api);
    expect((await t.api.get('/api/v1/auth/me').set(user.auth)).status).toBe(200);
    now += 16 * 60_000;
    const res = await t.api.get('/api/v1/auth/me').set(user.auth);
    expect(res.status).toBe(401);
    expect(res.body.error.reason).toBe('credential_invalid');
  });

  it('refuse a well-formed token signed by another key, and one for another audience', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const kid = (await t.api.get('/.well-known/jwks.json')).body.keys[0].kid as string;
    const foreign = await new SignJWT({ av: 1 })
      .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'at+jwt' })
      .setIssuer('http://localhost:4241')
      .setAudience('http://localhost:4241/api/v1')
      .setSubject(user.userId)
      .setJti('x')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await t.api.get('/api/v1/auth/me').set('Authorization', `Bearer ${foreign}`)).status).toBe(401);
    const other = await createTestBackend(database(), { publicUrl: 'https://other.example' });
    try {
      const otherUser = await signUp(other.api);
      expect((await other.api.get('/api/v1/auth/me').set(otherUser.auth)).status).toBe(200);
      expect((await t.api.get('/api/v1/auth/me').set(otherUser.auth)).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('stop working when the account is disabled', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    expect((await t.api.get('/api/v1/auth/me').set(user.auth)).status).toBe(200);
    await t.backend.container.get<UsersService>(SAAS_SERVICE_TYPES.UsersService).setStatus(user.userId, 'disabled');
    expect((await t.api.get('/api/v1/auth/me').set(user.auth)).status).toBe(401);
    expect((await t.api.post('/api/v1/auth/login').send({ email: user.email, password: TEST_PASSWORD })).status).toBe(
      401,
    );
  });
});

describe('organizations and memberships', () => {
  it('makes the creator ORG_ADMIN and lists the organization', async () => {
    await using t = await createTestBackend(database());
    const owner = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner, 'Acme');
    const list = await t.api.get('/api/v1/organizations').set(owner.auth);
    expect(list.body.data).toEqual([expect.objectContaining({ _id: orgId, name: 'Acme', role: 'ORG_ADMIN' })]);
    const members = await t.api.get(`/api/v1/organizations/${orgId}/members`).set(owner.auth);
    expect(members.body.data).toEqual([expect.objectContaining({ userId: owner.userId, role: 'ORG_ADMIN' })]);
  });

  it('hides an organization from non-members', async () => {
    await using t = await createTestBackend(database());
    const owner = await signUp(t.api);
    const outsider = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner);
    expect((await t.api.get(`/api/v1/organizations/${orgId}`).set(owner.auth)).status).toBe(200);
    expect((await t.api.get(`/api/v1/organizations/${orgId}`).set(outsider.auth)).status).toBe(404);
    expect((await t.api.get(`/api/v1/organizations/${orgId}/members`).set(outsider.auth)).status).toBe(404);
  });

  it('lets only ORG_ADMIN manage members', async () => {
    await using t = await createTestBackend(database());
    const owner = await signUp(t.api);
    const member = await signUp(t.api);
    const newcomer = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner);
    await addMember(t.api, owner, orgId, member, 'ORG_MEMBER');
    const refused = await t.api
      .post(`/api/v1/organizations/${orgId}/members`)
      .set(member.auth)
      .send({ email: newcomer.email, role: 'ORG_ADMIN' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.reason).toBe('role_refused');
  });

  it('lets a manager change roles within their own ceiling only', async () => {
    await using t = await createTestBackend(database());
    const owner = await signUp(t.api);
    const manager = await signUp(t.api);
    const member = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner);
    await addMember(t.api, owner, orgId, manager, 'ORG_MANAGER');
    await addMember(t.api, owner, orgId, member, 'ORG_MEMBER');
    const change = (as: { auth: Record<string, string> }, userId: string, role: string) =>
      t.api.put(`/api/v1/organizations/${orgId}/members/${userId}`).set(as.auth).send({ role });
    // Beyond the ceiling: promoting to admin, or changing an admin's role, is refused.
    const promote = await change(manager, member.userId, 'ORG_ADMIN');
    expect(promote.status).toBe(403);
    expect(promote.body.error.reason).toBe('role_refused');
    const demoteAdmin = await change(manager, owner.userId, 'ORG_MEMBER');
    expect(demoteAdmin.status).toBe(403);
    expect(demoteAdmin.body.error.reason).toBe('role_refused');
    // Within it: member to manager works.
    const within = await change(manager, member.userId, 'ORG_MANAGER');
    expect(within.status).toBe(200);
    expect(within.body.data.role).toBe('ORG_MANAGER');
    // A member may change nobody's role, not even within their own.
    const other = await signUp(t.api);
    await addMember(t.api, owner, orgId, other, 'ORG_MEMBER');
    const byMember = await change(other, manager.userId, 'ORG_MEMBER');
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.reason).toBe('role_refused');
  });

  it('invalidates a member’s tokens when their role changes, and applies the new role', async () => {
    await using t = await createTestBackend(database());
    const owner = await signUp(t.api);
    const manager = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner);
    await addMember(t.api, owner, orgId, manager, 'ORG_MANAGER');
    const base = `/api/v1/organizations/${orgId}/todos`;
    const todo = (await t.api.post(base).set(manager.auth).send({ title: 'x' })).body.data;
    expect((await t.api.get(base).set(manager.auth)).status).toBe(200);
    const demoted = await t.api
      .put(`/api/v1/organizations/${orgId}/members/${manager.userId}`)
      .set(owner.auth)
      .send({ role: 'ORG_MEMBER' });
    expect(demoted.status).toBe(200);
    const stale = await t.api.get(base).set(manager.auth);
    expect(stale.status).toBe(401);
    expect(stale.body.error.reason).toBe('credential_invalid');
    const fresh = await t.api.post('/api/v1/auth/login').send({ email: manager.email, password: TEST_PASSWORD });
    const auth = { Authorization: `Bearer ${fresh.body.data.accessToken}` };
    expect((await t.api.get(base).set(auth)).status).toBe(200);
    expect((await t.api.delete(`${base}/${todo._id}`).set(auth)).status).toBe(403);
  });

  it('cuts a removed member off at once', async () => {
    await using t = await createTestBackend(database());
    const owner = await signUp(t.api);
    const member = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner);
    await addMember(t.api, owner, orgId, member, 'ORG_MEMBER');
    expect((await t.api.get(`/api/v1/organizations/${orgId}/todos`).set(member.auth)).status).toBe(200);
    expect((await t.api.delete(`/api/v1/organizations/${orgId}/members/${member.userId}`).set(owner.auth)).status).toBe(
      200,
    );
    expect((await t.api.get(`/api/v1/organizations/${orgId}/todos`).set(member.auth)).status).toBe(401);
    const again = await t.api.post('/api/v1/auth/login').send({ email: member.email, password: TEST_PASSWORD });
    expect(
      (
        await t.api
          .get(`/api/v1/organizations/${orgId}/todos`)
          .set('Authorization', `Bearer ${again.body.data.accessToken}`)
      ).status,
    ).toBe(404);
  });

  it('keeps at least one ORG_ADMIN', async () => {
    await using t = await createTestBackend(database());
    const owner = await signUp(t.api);
    const second = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner);
    const lastAdmin = await t.api
      .put(`/api/v1/organizations/${orgId}/members/${owner.userId}`)
      .set(owner.auth)
      .send({ role: 'ORG_MEMBER' });
    expect(lastAdmin.status).toBe(409);
    await addMember(t.api, owner, orgId, second, 'ORG_ADMIN');
    expect((await t.api.delete(`/api/v1/organizations/${orgId}/members/${owner.userId}`).set(owner.auth)).status).toBe(
      200,
    );
  });
});

describe('application roles', () => {
  it('lets only APP_ADMIN change application roles', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    const target = await signUp(t.api);
    const refused = await t.api
      .put(`/api/v1/users/${target.userId}/app-roles`)
      .set(user.auth)
      .send({ roles: ['APP_ADMIN', 'APP_USER'] });
    expect(refused.status).toBe(403);
    const users = t.backend.container.get<UsersService>(SAAS_SERVICE_TYPES.UsersService);
    await users.setApplicationRoles(user.userId, ['APP_ADMIN', 'APP_USER']);
    const relogin = await t.api.post('/api/v1/auth/login').send({ email: user.email, password: TEST_PASSWORD });
    const admin = { Authorization: `Bearer ${relogin.body.data.accessToken}` };
    const granted = await t.api
      .put(`/api/v1/users/${target.userId}/app-roles`)
      .set(admin)
      .send({ roles: ['APP_ADMIN', 'APP_USER'] });
    expect(granted.status).toBe(200);
    expect(granted.body.data.appRoles).toEqual(['APP_ADMIN', 'APP_USER']);
  });
});
