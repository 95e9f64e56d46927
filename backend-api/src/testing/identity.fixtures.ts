import { randomUUID } from 'node:crypto';
import { CORE_APP_ROLES } from '@wildo/shared-lib';
import type supertest from 'supertest';
import { expect } from 'vitest';
import { SAAS_SERVICE_TYPES } from '../engine/container/saas-service-types.tokens.js';
import type { WildoBackend } from '../engine/bootstrap/wildo-backend.js';
import type { UsersService } from '../engine/identity/users.service.js';

/** The default password of test accounts. */
export const TEST_PASSWORD = 'correct horse battery staple';

/** A signed-up test user. */
export interface TestUser {
  userId: string;
  email: string;
  token: string;
  auth: { Authorization: string };
}

/**
 * Signs up a fresh user (unique email) the way a person does on a development backend: the sign-up, the link in the
 * mail the outbox kept, the link opened (which creates the account with its address proven and signs it in).
 */
export async function signUp(api: supertest.Agent, label = 'user'): Promise<TestUser> {
  const email = `${label}-${randomUUID()}@example.test`;
  const res = await api.post('/api/v1/auth/signup').send({ email, password: TEST_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const opened = await api.post('/api/v1/auth/verify-email').send({ token: await mailedLinkToken(api, email) });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  const token = opened.body.data.accessToken as string;
  return { userId: opened.body.data.user._id, email, token, auth: { Authorization: `Bearer ${token}` } };
}

/** The token of the latest address link (`/verify-email#token=...`) the development outbox holds for `email`. */
export async function mailedLinkToken(api: supertest.Agent, email: string): Promise<string> {
  const outbox = await api.get('/api/v1/dev/outbox').query({ to: email, limit: '1' });
  expect(outbox.status, JSON.stringify(outbox.body)).toBe(200);
  const links = (outbox.body.data[0]?.links ?? []) as string[];
  const token = links.map((link) => /\/verify-email#token=([\w-]+)/.exec(link)?.[1]).find(Boolean);
  if (!token) throw new Error(`no address link in the latest mail to ${email}`);
  return token;
}

/** Creates an organization owned (ORG_ADMIN) by `owner`. */
export async function createOrganization(api: supertest.Agent, owner: TestUser, name = 'Acme'): Promise<string> {
  const res = await api.post('/api/v1/organizations').set(owner.auth).send({ name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id as string;
}

/** Replaces a test user's token (after a change of their authorization version revoked the old one). */
export function useToken(user: TestUser, token: string): void {
  user.token = token;
  user.auth = { Authorization: `Bearer ${token}` };
}

/** Invites `email` to an organization with `role`, as its admin; returns the invitation id. */
export async function invite(
  api: supertest.Agent,
  admin: TestUser,
  organizationId: string,
  email: string,
  role: string,
): Promise<string> {
  const res = await api
    .post(`/api/v1/organizations/${organizationId}/invitations`)
    .set(admin.auth)
    .send({ email, role });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id as string;
}

/** Accepts an invitation as `person`, whose token is replaced by the fresh one the answer carries. */
export async function acceptInvitation(api: supertest.Agent, person: TestUser, invitationId: string): Promise<void> {
  const res = await api.post(`/api/v1/invitations/${invitationId}/accept`).set(person.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  useToken(person, res.body.data.accessToken as string);
}

/**
 * Makes `member` a member with `role`: the admin invites, then the member accepts. Accepting changes the member's
 * authorization version, so `member.token`/`member.auth` are replaced by the fresh token (earlier copies stop working).
 */
export async function addMember(
  api: supertest.Agent,
  admin: TestUser,
  organizationId: string,
  member: TestUser,
  role: string,
): Promise<void> {
  await acceptInvitation(api, member, await invite(api, admin, organizationId, member.email, role));
}

/**
 * Signs up a fresh user, grants APP_ADMIN as an operator does (`wildo users grant-role`, through the same
 * `UsersService.changeApplicationRole`), then signs in again: the sign-up token predates the grant.
 */
export async function signUpAppAdmin(
  t: { api: supertest.Agent; backend: WildoBackend },
  label = 'app-admin',
): Promise<TestUser> {
  const user = await signUp(t.api, label);
  const users = t.backend.container.get<UsersService>(SAAS_SERVICE_TYPES.UsersService);
  expect((await users.changeApplicationRole(user.email, CORE_APP_ROLES.APP_ADMIN, 'grant')).changed).toBe(true);
  return signInAgain(t.api, user);
}

/** Signs a test user in again: a new token (after a clock moved past the old one's lifetime, a role change, a new issuer). */
export async function signInAgain(api: supertest.Agent, user: TestUser): Promise<TestUser> {
  const res = await api.post('/api/v1/auth/login').send({ email: user.email, password: TEST_PASSWORD });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  const token = res.body.data.accessToken as string;
  return { ...user, token, auth: { Authorization: `Bearer ${token}` } };
}
