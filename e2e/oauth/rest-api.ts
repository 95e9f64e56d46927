import { randomBytes, randomUUID } from 'node:crypto';

/** One REST answer: status and parsed JSON body (undefined when empty or not JSON). */
export interface RestResult {
  status: number;
  headers: Headers;
  body: any;
}

/** A person signed up through the public API; the password is kept for the browser sign-in. */
export interface Person {
  userId: string;
  email: string;
  password: string;
  displayName: string;
  /** The first-party access token (audience: the REST API). */
  accessToken: string;
}

/** Calls the backend's REST API with an optional bearer token and JSON body. */
export async function rest(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<RestResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body };
}

/** A short description of an unexpected answer, for assertion messages (never carries a token). */
export function describeAnswer(res: RestResult): string {
  return `${res.status} ${JSON.stringify(res.body)?.slice(0, 500)}`;
}

function expectStatus(res: RestResult, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${describeAnswer(res)}`);
}

/**
 * `POST /api/v1/auth/signup` with a unique email, a random password and a display name, then the link of the mail
 * the development outbox kept, opened (which creates the account and signs it in).
 */
export async function signUp(baseUrl: string, label: string): Promise<Person> {
  const email = `e2e-oauth-${label}-${randomUUID()}@example.test`;
  const password = randomBytes(24).toString('base64url');
  const displayName = `E2E ${label}`;
  const signup = await rest(baseUrl, 'POST', '/api/v1/auth/signup', { json: { email, password, displayName } });
  expectStatus(signup, 202, `sign up ${label}`);
  const res = await rest(baseUrl, 'POST', '/api/v1/auth/verify-email', {
    json: { token: await mailedLinkToken(baseUrl, email) },
  });
  expectStatus(res, 201, `open the sign-up link of ${label}`);
  return { userId: res.body.data.user._id, email, password, displayName, accessToken: res.body.data.accessToken };
}

/** The token of the latest address link the development outbox holds for `email`. */
export async function mailedLinkToken(baseUrl: string, email: string): Promise<string> {
  const outbox = await rest(baseUrl, 'GET', `/api/v1/dev/outbox?to=${encodeURIComponent(email)}&limit=1`);
  expectStatus(outbox, 200, 'read the outbox');
  const links = (outbox.body.data[0]?.links ?? []) as string[];
  const token = links.map((link) => /\/verify-email#token=([\w-]+)/.exec(link)?.[1]).find(Boolean);
  if (!token) throw new Error(`no address link in the latest mail to ${email}`);
  return token;
}

/** `POST /api/v1/organizations` as `owner` (who becomes its ORG_ADMIN); returns its id. */
export async function createOrganization(baseUrl: string, owner: Person, name: string): Promise<string> {
  const res = await rest(baseUrl, 'POST', '/api/v1/organizations', { token: owner.accessToken, json: { name } });
  expectStatus(res, 201, 'create organization');
  return res.body.data._id as string;
}

/** `POST /api/v1/organizations/:orgId/todos` as `author`; returns the todo's id. */
export async function createTodo(
  baseUrl: string,
  author: Person,
  organizationId: string,
  title: string,
): Promise<string> {
  const res = await rest(baseUrl, 'POST', `/api/v1/organizations/${organizationId}/todos`, {
    token: author.accessToken,
    json: { title },
  });
  expectStatus(res, 201, 'create todo');
  return res.body.data._id as string;
}

/** The payload of a JWT, decoded without verification (only to show what the server put in it). */
export function jwtClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1];
  if (!payload) throw new Error('not a JWT');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}
