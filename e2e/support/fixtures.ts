import { randomBytes, randomUUID } from 'node:crypto';
import { BearerToken } from './bearer-token.js';
import type { HttpClient, HttpResult } from './http-client.js';
import { dataOf, describeResponse, nextCursorOf, recordOf, recordsOf, type ApiRecord } from './responses.js';

/** An organization role of the reference application. */
export type OrgRole = 'ORG_ADMIN' | 'ORG_MANAGER' | 'ORG_MEMBER';

/** A disposable account provisioned through the public API; its password stays inside this module. */
export interface ScenarioUser {
  userId: string;
  email: string;
  /** The current access token (replaced by {@link logIn}). */
  token: BearerToken;
}

/**
 * Setup that did not go as the public API promises. The scenario reports it as an aborted section (an
 * unexecuted check is not a passed one). Its message carries status and error code, never a body.
 */
export class FixtureError extends Error {
  override readonly name = 'FixtureError';
}

// Passwords are generated per account and kept out of every object a report could print.
const passwords = new WeakMap<ScenarioUser, string>();

function expectStatus(res: HttpResult, status: number, what: string): void {
  if (res.status !== status) throw new FixtureError(`${what}: expected status ${status}, got ${describeResponse(res)}`);
}

/** A short random marker, unique per run, used in emails, names, titles and probe values. */
export function uniqueMarker(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/**
 * Signs up a fresh account with a unique `@example.test` email and a random password, as a person does on a
 * development stack: the sign-up, then the link of the mail the outbox kept, opened.
 */
export async function signUp(client: HttpClient, label: string): Promise<ScenarioUser> {
  const email = `e2e-${label}-${randomUUID()}@example.test`;
  const password = randomBytes(24).toString('base64url');
  expectStatus(await client.post('/api/v1/auth/signup', { email, password }), 202, `sign up ${label}`);
  const outbox = await client.get(`/api/v1/dev/outbox?to=${encodeURIComponent(email)}&limit=1`);
  expectStatus(outbox, 200, `read the outbox for ${label}`);
  const mails = dataOf(outbox) as { links?: string[] }[] | undefined;
  const token = mails?.[0]?.links?.map((link) => /\/verify-email#token=([\w-]+)/.exec(link)?.[1]).find(Boolean);
  if (!token) throw new FixtureError(`sign up ${label}: no link in the mail`);
  const res = await client.post('/api/v1/auth/verify-email', { token });
  expectStatus(res, 201, `open the sign-up link of ${label}`);
  const data = dataObject(res);
  const user = data['user'] as { _id?: unknown } | undefined;
  if (typeof data['accessToken'] !== 'string' || typeof user?._id !== 'string')
    throw new FixtureError(`sign up ${label}: no token or user id in the answer`);
  const scenarioUser: ScenarioUser = { userId: user._id, email, token: new BearerToken(data['accessToken']) };
  passwords.set(scenarioUser, password);
  return scenarioUser;
}

/** Signs `user` in again and replaces its token (after a membership change revoked the old one). */
export async function logIn(client: HttpClient, user: ScenarioUser): Promise<BearerToken> {
  const res = await client.post('/api/v1/auth/login', { email: user.email, password: passwords.get(user) });
  expectStatus(res, 200, 'log in');
  const token = dataObject(res)['accessToken'];
  if (typeof token !== 'string') throw new FixtureError('log in: no token in the answer');
  user.token = new BearerToken(token);
  return user.token;
}

/** Creates an organization owned (ORG_ADMIN) by `owner` and returns its id. */
export async function createOrganization(client: HttpClient, owner: ScenarioUser, name: string): Promise<string> {
  const res = await client.post('/api/v1/organizations', { name }, { token: owner.token });
  expectStatus(res, 201, 'create organization');
  const organization = recordOf(res);
  if (!organization) throw new FixtureError('create organization: no id in the answer');
  return organization._id;
}

/**
 * Makes `member` a member with `role`: the admin invites the member's email, then the member accepts. Accepting
 * revokes the member's outstanding tokens, so `member.token` is replaced by the fresh one the answer carries.
 */
export async function addMember(
  client: HttpClient,
  admin: ScenarioUser,
  organizationId: string,
  member: ScenarioUser,
  role: OrgRole,
): Promise<void> {
  const invited = await client.post(
    `/api/v1/organizations/${organizationId}/invitations`,
    { email: member.email, role },
    { token: admin.token },
  );
  expectStatus(invited, 201, `invite member as ${role}`);
  const invitation = recordOf(invited);
  if (!invitation) throw new FixtureError('invite member: no invitation id in the answer');
  const accepted = await client.post(`/api/v1/invitations/${invitation._id}/accept`, {}, { token: member.token });
  expectStatus(accepted, 200, 'accept invitation');
  const token = dataObject(accepted)['accessToken'];
  if (typeof token !== 'string') throw new FixtureError('accept invitation: no token in the answer');
  member.token = new BearerToken(token);
}

/** Changes a member's role, as the organization's admin (the member's outstanding tokens stop working). */
export async function changeMemberRole(
  client: HttpClient,
  admin: ScenarioUser,
  organizationId: string,
  member: ScenarioUser,
  role: OrgRole,
): Promise<HttpResult> {
  const res = await client.put(
    `/api/v1/organizations/${organizationId}/members/${member.userId}`,
    { role },
    { token: admin.token },
  );
  expectStatus(res, 200, `change member role to ${role}`);
  return res;
}

/** Removes a member, as the organization's admin. */
export async function removeMember(
  client: HttpClient,
  admin: ScenarioUser,
  organizationId: string,
  member: ScenarioUser,
): Promise<HttpResult> {
  const res = await client.delete(`/api/v1/organizations/${organizationId}/members/${member.userId}`, {
    token: admin.token,
  });
  expectStatus(res, 200, 'remove member');
  return res;
}

/** The members of an organization (user id and role), read by one of its members. */
export async function listMembers(
  client: HttpClient,
  reader: ScenarioUser,
  organizationId: string,
): Promise<{ userId: string; role: string }[]> {
  const res = await client.get(`/api/v1/organizations/${organizationId}/members`, { token: reader.token });
  expectStatus(res, 200, 'list members');
  const data = dataOf(res);
  return Array.isArray(data) ? (data as { userId: string; role: string }[]) : [];
}

/** The todos collection path of an organization. */
export function todosPath(organizationId: string): string {
  return `/api/v1/organizations/${organizationId}/todos`;
}

/** Creates a todo in the organization as `author` and returns the stored record. */
export async function createTodo(
  client: HttpClient,
  author: ScenarioUser,
  organizationId: string,
  input: Record<string, unknown>,
): Promise<ApiRecord> {
  const res = await client.post(todosPath(organizationId), input, { token: author.token });
  expectStatus(res, 201, 'create todo');
  const todo = recordOf(res);
  if (!todo) throw new FixtureError('create todo: no record in the answer');
  return todo;
}

/** Reads a todo as an allowed caller: the stored state that refusals must have left alone. */
export async function readTodo(
  client: HttpClient,
  reader: ScenarioUser,
  organizationId: string,
  id: string,
): Promise<ApiRecord | undefined> {
  const res = await client.get(`${todosPath(organizationId)}/${id}`, { token: reader.token });
  if (res.status === 404) return undefined;
  expectStatus(res, 200, 'read todo');
  return recordOf(res);
}

/** Every todo id of the organization, following cursors (bounded, so a looping cursor cannot hang the run). */
export async function listTodoIds(client: HttpClient, reader: ScenarioUser, organizationId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null | undefined = null;
  for (let page = 0; page < 50; page += 1) {
    const query: [string, string][] = [['limit', '100'], ...(cursor ? [['cursor', cursor] as [string, string]] : [])];
    const res = await client.get(todosPath(organizationId), { token: reader.token, query });
    expectStatus(res, 200, 'list todos');
    ids.push(...recordsOf(res).map((r) => r._id));
    cursor = nextCursorOf(res);
    if (!cursor) return ids;
  }
  throw new FixtureError('list todos: more than 50 pages');
}

// The `data` object of a non-record answer (signup, login).
function dataObject(res: HttpResult): Record<string, unknown> {
  const data = dataOf(res);
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
}
