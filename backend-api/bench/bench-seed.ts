import { randomUUID } from 'node:crypto';

/** What the benchmark reads: one todo, and a token of a member allowed to read it. */
export interface SeededTodo {
  token: string;
  todoPath: string;
  todoId: string;
}

/** POSTs JSON and returns `data` of the answer, failing with the status and body when it is not `expected`. */
async function post(url: string, body: unknown, expected: number, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected)
    throw new Error(`POST ${new URL(url).pathname} answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

function stringField(data: Record<string, unknown>, field: string): string {
  const value = data[field];
  if (typeof value !== 'string') throw new Error(`Expected a string "${field}" in ${JSON.stringify(data)}.`);
  return value;
}

/**
 * Signs up a person the way a development backend has them do it (the sign-up, the link the outbox kept, opened)
 * and returns their access token.
 */
export async function signUpThroughOutbox(frameworkUrl: string, email: string, password: string): Promise<string> {
  const api = `${frameworkUrl}/api/v1`;
  await post(`${api}/auth/signup`, { email, password }, 202);
  const outbox = await fetch(`${api}/dev/outbox?to=${encodeURIComponent(email)}&limit=1`);
  const mails = ((await outbox.json()) as { data?: { links?: string[] }[] }).data ?? [];
  const token = mails[0]?.links?.map((link) => /\/verify-email#token=([\w-]+)/.exec(link)?.[1]).find(Boolean);
  if (!token) throw new Error(`No sign-up link in the outbox for ${email} (${outbox.status}).`);
  return stringField(await post(`${api}/auth/verify-email`, { token }, 201), 'accessToken');
}

/** Signs up a user and creates an organization (its admin), through the framework's own HTTP API. */
export async function seedOrganization(frameworkUrl: string): Promise<{ token: string; organizationId: string }> {
  const api = `${frameworkUrl}/api/v1`;
  const token = await signUpThroughOutbox(
    frameworkUrl,
    `bench-${randomUUID()}@example.test`,
    'bench passphrase, long enough',
  );
  const organizationId = stringField(await post(`${api}/organizations`, { name: 'Bench' }, 201, token), '_id');
  return { token, organizationId };
}

/**
 * Signs up a user, creates an organization (its admin) and one todo, through the framework's own HTTP API,
 * so the data has exactly the shape a real client would leave behind.
 */
export async function seedTodo(frameworkUrl: string): Promise<SeededTodo> {
  const { token, organizationId } = await seedOrganization(frameworkUrl);
  const todoPath = `/api/v1/organizations/${organizationId}/todos`;
  const todoId = stringField(
    await post(`${frameworkUrl}${todoPath}`, { title: 'Measure the pipeline', priority: 2 }, 201, token),
    '_id',
  );
  return { token, todoPath: `${todoPath}/${todoId}`, todoId };
}
