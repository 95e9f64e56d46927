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

/** Signs up a user and creates an organization (its admin), through the framework's own HTTP API. */
export async function seedOrganization(frameworkUrl: string): Promise<{ token: string; organizationId: string }> {
  const api = `${frameworkUrl}/api/v1`;
  const signup = await post(
    `${api}/auth/signup`,
    { email: `bench-${randomUUID()}@example.test`, password: 'bench passphrase, long enough' },
    201,
  );
  const token = stringField(signup, 'accessToken');
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
