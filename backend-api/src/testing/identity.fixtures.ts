import { randomUUID } from 'node:crypto';
import { CORE_APP_ROLES } from '@wildo/shared-lib';
import type supertest from 'supertest';
import { expect } from 'vitest';
import { SAAS_SERVICE_TYPES } from '../engine/container/saas-service-types.tokens.js';
import type { WildoBackend } from '../engine/container/wildo-backend.js';
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

/** Signs up a fresh user (unique email) and returns its token. */
export async function signUp(api: supertest.Agent, label = 'user'): Promise<TestUser> {
  const email = `${label}-${randomUUID()}@example.test`;
  const res = await api.post('/api/v1/auth/signup').send({ email, password: TEST_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = res.body.data.accessToken as string;
  return { userId: res.body.data.user._id, email, token, auth: { Authorization: `Bearer ${token}` } };
}

/** Creates an organization owned (ORG_ADMIN) by `owner`. */
export async function createOrganization(api: supertest.Agent, owner: TestUser, name = 'Acme'): Promise<string> {
  const res = await api.post('/api/v1/organizations').set(owner.auth).send({ name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id as string;
}

/** Adds `member` to an organization with `role`, as its admin. */
export async function addMember(api: supertest.Agent, admin: TestUser, organizationId: string, member: TestUser, role: string): Promise<void> {
  const res = await api.post(`/api/v1/organizations/${organizationId}/members`).set(admin.auth).send({ email: member.email, role });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/**
 * Signs up a fresh user, grants APP_ADMIN as an operator does (`wildo users grant-role`, through the same
 * `UsersService.changeApplicationRole`), then signs in again: the sign-up token predates the grant.
 */
export async function signUpAppAdmin(t: { api: supertest.Agent; backend: WildoBackend }, label = 'app-admin'): Promise<TestUser> {
  const user = await signUp(t.api, label);
  const users = t.backend.container.get<UsersService>(SAAS_SERVICE_TYPES.UsersService);
  expect((await users.changeApplicationRole(user.email, CORE_APP_ROLES.APP_ADMIN, 'grant')).changed).toBe(true);
  const res = await t.api.post('/api/v1/auth/login').send({ email: user.email, password: TEST_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = res.body.data.accessToken as string;
  return { ...user, token, auth: { Authorization: `Bearer ${token}` } };
}
