import { describe, expect, it, vi } from 'vitest';
import {
  addMember,
  createOrganization,
  signUp,
  signUpAppAdmin,
  type TestUser,
} from '../../testing/identity.fixtures.js';
import {
  callTool,
  callToolOk,
  delegatedToken,
  handshake,
  MCP_BACKEND_OPTIONS,
  MCP_PATH,
  MCP_SUPPORT_PATH,
  organizationApiKey,
  policyDenied,
  rpc,
  spyOnServices,
  toolError,
} from '../../testing/mcp.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { PrincipalDirectory } from '../identity/principal-directory.js';
import type { UserSnapshot } from '../identity/principal.types.js';
import type { UsersService } from '../identity/users.service.js';
import { mcpProbesApplication } from './mcp-probes.fixtures.js';
import { GOVERNANCE_META, RPC_ERRORS } from './mcp-protocol.js';

const database = useTestDatabase();
const METADATA = 'http://localhost:4241/.well-known/oauth-protected-resource/api/v1/mcp';

/** A person owning an organization, with a delegated token for the default endpoint. */
async function owner(t: TestBackend, label = 'owner') {
  const user = await signUp(t.api, label);
  const organizationId = await createOrganization(t.api, user, label);
  return { user, organizationId, token: await delegatedToken(t.api, user) };
}

/** Makes the principal directory fail from its `failFrom`-th read on (the first reads authenticate the call). */
function breakDirectoryAfter(
  t: TestBackend,
  failFrom: number,
  failure: (snapshot: UserSnapshot | null) => Promise<UserSnapshot | null>,
) {
  const directory = t.backend.container.get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory);
  const read = directory.getUser.bind(directory);
  // Every check reads the directory, as when its cache has just expired (a cached answer would skip getUser).
  vi.spyOn(directory as Required<PrincipalDirectory>, 'peekUser').mockReturnValue(undefined);
  let reads = 0;
  // The directory is a singleton already injected everywhere (authenticator, context creator, MCP router), so
  // the running instance is wrapped rather than rebound in the container.
  return vi.spyOn(directory, 'getUser').mockImplementation(async (userId) => {
    reads += 1;
    const snapshot = await read(userId);
    return reads >= failFrom ? failure(snapshot) : snapshot;
  });
}

describe('input_invalid', () => {
  it('dispatches a well-formed call (control)', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { token } = await owner(t);
    const services = spyOnServices(t);
    expect(
      await callToolOk(t.api, MCP_PATH, token, 'todos__create', {
        title: 'fine',
        checklist: [{ label: 'a', done: false }],
      }),
    ).toMatchObject({ title: 'fine' });
    expect(services.count()).toBe(1);
  });

  it('refuses bad values and undeclared keys, naming the keys but never repeating the values, dispatching nothing', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { token } = await owner(t);
    const services = spyOnServices(t);
    const args = {
      title: 'ok',
      priority: 'SECRET-PRIORITY-77',
      isAdminXyz: true,
      checklist: [{ label: 'x', done: 'SECRET-DONE-88', smuggledKeyQq: 1 }],
    };
    const result = await callTool(t.api, MCP_PATH, token, 'todos__create', args);
    expect(result.isError).toBe(true);
    const refusal = result._meta?.[GOVERNANCE_META.INPUT_INVALID] as {
      error: string;
      tool: string;
      reason: string;
      problems: { path: string; expected: string }[];
    };
    expect(refusal).toMatchObject({ error: 'input_invalid', tool: 'todos__create', reason: 'input_invalid' });
    expect(refusal.problems).toEqual(
      expect.arrayContaining([
        { path: 'priority', expected: expect.any(String) },
        { path: 'checklist[0].done', expected: expect.any(String) },
        { path: 'isAdminXyz', expected: expect.stringMatching(/^a declared field: title, /) },
        { path: 'checklist[0].smuggledKeyQq', expected: 'a declared field: label, done' },
      ]),
    );
    expect(JSON.stringify(result)).not.toMatch(/SECRET-PRIORITY-77|SECRET-DONE-88/);
    expect(services.count()).toBe(0);
  });

  it('reports at most 16 problems however many there are', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { token } = await owner(t);
    const services = spyOnServices(t);
    const checklist = Array.from({ length: 40 }, (_, i) => ({ label: i, done: 'no' }));
    const result = await callTool(t.api, MCP_PATH, token, 'todos__create', { title: 'many', checklist });
    const refusal = result._meta?.[GOVERNANCE_META.INPUT_INVALID] as { problems: unknown[] };
    expect(refusal.problems.length).toBeGreaterThan(1);
    expect(refusal.problems.length).toBeLessThanOrEqual(16);
    expect(services.count()).toBe(0);
  });

  it('reports a missing record id as { path: todoId, expected: required }', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { token } = await owner(t);
    const services = spyOnServices(t);
    for (const args of [{}, { todoId: '' }, { todoId: 7 }]) {
      const result = await callTool(t.api, MCP_PATH, token, 'todos__read', args);
      expect(result._meta?.[GOVERNANCE_META.INPUT_INVALID]).toMatchObject({
        problems: [{ path: 'todoId', expected: 'required' }],
      });
    }
    expect(services.count()).toBe(0);
  });

  it('refuses an undeclared list filter, naming it with the declared filters', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { token } = await owner(t);
    const services = spyOnServices(t);
    const result = await callTool(t.api, MCP_PATH, token, 'todos__list', {
      createdByUserIdZz: 'value-never-echoed',
      $where: 1,
      limit: 1000,
    });
    expect((result._meta![GOVERNANCE_META.INPUT_INVALID] as { problems: unknown[] }).problems).toEqual(
      expect.arrayContaining([
        { path: 'createdByUserIdZz', expected: 'a declared filter: status, priority, assignee (or limit, cursor)' },
        { path: '(root)', expected: 'no undeclared fields' },
        { path: 'limit', expected: 'an integer from 1 to 100' },
      ]),
    );
    expect(JSON.stringify(result)).not.toMatch(/value-never-echoed|\$where/);
    expect(services.count()).toBe(0);
  });
});

describe('role_refused', () => {
  it('lets a manager delete (control) and refuses a member, leaving the todo in place', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { user: admin, organizationId, token: adminToken } = await owner(t);
    const member = await signUp(t.api, 'member');
    await addMember(t.api, admin, organizationId, member, 'ORG_MEMBER');
    const memberToken = await delegatedToken(t.api, member);
    const doomed = await callToolOk(t.api, MCP_PATH, adminToken, 'todos__create', { title: 'doomed' });
    expect(await callToolOk(t.api, MCP_PATH, adminToken, 'todos__delete', { todoId: doomed._id })).toEqual({
      _id: doomed._id,
      deleted: true,
    });

    const kept = await callToolOk(t.api, MCP_PATH, memberToken, 'todos__create', { title: 'kept' });
    const services = spyOnServices(t);
    const result = await callTool(t.api, MCP_PATH, memberToken, 'todos__delete', { todoId: kept._id });
    expect(policyDenied(result)).toEqual({ error: 'policy_denied', tool: 'todos__delete', reason: 'role_refused' });
    // The sentence says what happened, not which roles would have been admitted.
    expect(result.content[0]?.text).not.toMatch(/ORG_MANAGER|ORG_ADMIN/);
    expect(services.count()).toBe(0);
    expect(
      (await t.api.get(`/api/v1/organizations/${organizationId}/todos/${kept._id as string}`).set(admin.auth)).status,
    ).toBe(200);
  });
});

describe('rate_limit_exceeded', () => {
  it('charges todos__stats in its own MCP bucket: exhausting REST leaves the MCP allowance intact', async () => {
    await using t = await createTestBackend(database());
    const admin = await signUp(t.api);
    const organizationId = await createOrganization(t.api, admin);
    const key = await organizationApiKey(t.api, admin, organizationId);
    const rest = () =>
      t.api.post(`/api/v1/organizations/${organizationId}/todos/stats`).set('Authorization', key).send({});
    for (let i = 0; i < 30; i++) expect((await rest()).status).toBe(200);
    const restRefused = await rest();
    expect(restRefused.status).toBe(429);
    expect(restRefused.body.error.reason).toBe('rate_limit_exceeded');

    for (let i = 0; i < 30; i++) await callToolOk(t.api, MCP_SUPPORT_PATH, key, 'todos__stats');
    const services = spyOnServices(t);
    const result = await callTool(t.api, MCP_SUPPORT_PATH, key, 'todos__stats');
    expect(policyDenied(result)).toEqual({
      error: 'policy_denied',
      tool: 'todos__stats',
      reason: 'rate_limit_exceeded',
    });
    expect(services.count()).toBe(0);
    // Another tool without a policy is unaffected.
    await callToolOk(t.api, MCP_PATH, key, 'todos__list');
  });

  it('applies the blanket principal throttle: a governed refusal for calls, 429 for listing', async () => {
    await using t = await createTestBackend(database(), { http: { burst: { points: 3, durationMs: 60_000 } } });
    const admin = await signUp(t.api);
    const organizationId = await createOrganization(t.api, admin);
    const key = await organizationApiKey(t.api, admin, organizationId);
    const services = spyOnServices(t);
    for (let i = 0; i < 3; i++) await callToolOk(t.api, MCP_PATH, key, 'todos__list');
    expect(services.count()).toBe(3);
    services.reset();
    const result = await callTool(t.api, MCP_PATH, key, 'todos__list');
    expect(policyDenied(result)).toEqual({
      error: 'policy_denied',
      tool: 'todos__list',
      reason: 'rate_limit_exceeded',
    });
    const list = await handshake(t.api, MCP_PATH, rpc('tools/list'), key);
    expect(list.status).toBe(429);
    expect(list.body.error).toMatchObject({ code: RPC_ERRORS.SERVER_ERROR, data: { reason: 'rate_limit_exceeded' } });
    expect(Number(list.headers['retry-after'])).toBeGreaterThan(0);
    // One bucket per principal across surfaces: REST is throttled as well.
    expect((await t.api.get(`/api/v1/organizations/${organizationId}/todos`).set('Authorization', key)).status).toBe(
      429,
    );
    expect(services.count()).toBe(0);
  });
});

describe('principal_not_allowed', () => {
  async function probes() {
    const t = await createTestBackend(database(), { ...MCP_BACKEND_OPTIONS, application: mcpProbesApplication });
    const admin = await signUpAppAdmin(t);
    const created = await t.api
      .post('/api/v1/api-keys')
      .set(admin.auth)
      .send({ name: 'App', roles: ['APP_ADMIN'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const person = await signUp(t.api);
    const organizationId = await createOrganization(t.api, person);
    return {
      t,
      person,
      organizationId,
      appKey: created.body.data.plainKey as string,
      orgKey: await organizationApiKey(t.api, person, organizationId),
    };
  }

  it('refuses an organization machine on an application-scoped tool; an application machine may call it', async () => {
    const { t, appKey, orgKey } = await probes();
    await using _ = t;
    expect(await callToolOk(t.api, MCP_PATH, appKey, 'bulletins__list')).toEqual({ data: [], nextCursor: null });
    expect(await listToolNames(t, orgKey)).not.toContain('bulletins__list');
    const services = spyOnServices(t);
    const result = await callTool(t.api, MCP_PATH, orgKey, 'bulletins__list');
    expect(policyDenied(result)).toEqual({
      error: 'policy_denied',
      tool: 'bulletins__list',
      reason: 'principal_not_allowed',
    });
    expect(services.count()).toBe(0);
  });

  it('refuses any machine on a user-scoped tool; a person may call it', async () => {
    const { t, person, appKey, orgKey } = await probes();
    await using _ = t;
    expect(await callToolOk(t.api, MCP_PATH, await delegatedToken(t.api, person), 'memos__list')).toEqual({
      data: [],
      nextCursor: null,
    });
    const services = spyOnServices(t);
    for (const key of [appKey, orgKey]) {
      expect(policyDenied(await callTool(t.api, MCP_PATH, key, 'memos__list'))).toMatchObject({
        reason: 'principal_not_allowed',
      });
    }
    expect(services.count()).toBe(0);
  });

  it('answers an application machine on an organization tool as not found, or asks for the organization', async () => {
    const { t, organizationId, appKey, orgKey } = await probes();
    await using _ = t;
    await callToolOk(t.api, MCP_PATH, orgKey, 'probes__create', { label: 'control' });
    const services = spyOnServices(t);
    expect(
      toolError(await callTool(t.api, MCP_PATH, appKey, 'probes__create', { label: 'x', organizationId })),
    ).toEqual({ error: 'not_found', tool: 'probes__create' });
    const unaddressed = await callTool(t.api, MCP_PATH, appKey, 'probes__create', { label: 'x' });
    expect(unaddressed._meta?.[GOVERNANCE_META.INPUT_INVALID]).toMatchObject({
      problems: [{ path: 'organizationId', expected: 'required' }],
    });
    expect(services.count()).toBe(0);
  });

  async function listToolNames(t: TestBackend, authorization: string): Promise<string[]> {
    const res = await handshake(t.api, MCP_PATH, rpc('tools/list'), authorization);
    return (res.body.result.tools as { name: string }[]).map((tool) => tool.name);
  }
});

describe('identity_not_evaluable', () => {
  it('refuses a call as a governed result when the directory fails after authentication (fail closed)', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { organizationId, token } = await owner(t);
    await callToolOk(t.api, MCP_PATH, token, 'todos__list', { organizationId });
    // Read 1 authenticates the next call; read 2 (the execution context's) fails.
    const directory = breakDirectoryAfter(t, 2, () => Promise.reject(new Error('directory down')));
    const services = spyOnServices(t);
    const result = await callTool(t.api, MCP_PATH, token, 'todos__list', { organizationId });
    expect(policyDenied(result)).toEqual({
      error: 'policy_denied',
      tool: 'todos__list',
      reason: 'identity_not_evaluable',
    });
    expect(JSON.stringify(result)).not.toContain('directory down');
    expect(directory).toHaveBeenCalledTimes(2);
    expect(services.count()).toBe(0);
  });

  it('answers 503 with a retry hint, not an invalid_token challenge, when the directory fails at authentication', async () => {
    await using t = await createTestBackend(database(), { ...MCP_BACKEND_OPTIONS, allowServerErrors: true });
    const { token } = await owner(t);
    breakDirectoryAfter(t, 1, () => Promise.reject(new Error('directory down')));
    const services = spyOnServices(t);
    for (const body of [rpc('tools/list'), rpc('tools/call', { name: 'todos__list', arguments: {} })]) {
      const res = await handshake(t.api, MCP_PATH, body, token);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      // A challenge would make the client drop a token that is fine.
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.body.error).toMatchObject({
        code: RPC_ERRORS.SERVER_ERROR,
        data: { reason: 'identity_not_evaluable' },
      });
      expect(JSON.stringify(res.body)).not.toContain('directory down');
    }
    expect(services.count()).toBe(0);
  });
});

describe('principal_denied', () => {
  async function disable(t: TestBackend, user: TestUser) {
    await t.backend.container.get<UsersService>(SAAS_SERVICE_TYPES.UsersService).setStatus(user.userId, 'disabled');
  }

  it('answers a disabled person’s delegated token with HTTP 401, never with a tool result', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { user, token } = await owner(t);
    await callToolOk(t.api, MCP_PATH, token, 'todos__list');
    await disable(t, user);
    const services = spyOnServices(t);
    for (const body of [rpc('tools/list'), rpc('tools/call', { name: 'todos__list', arguments: {} })]) {
      const res = await handshake(t.api, MCP_PATH, body, token);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(`Bearer error="invalid_token", resource_metadata="${METADATA}"`);
      expect(res.body.result).toBeUndefined();
    }
    expect(services.count()).toBe(0);
  });

  it('stays HTTP 401 with the metadata challenge when the account is found disabled mid-call', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { organizationId, token } = await owner(t);
    breakDirectoryAfter(t, 2, async (snapshot) => (snapshot ? { ...snapshot, status: 'disabled' } : null));
    const services = spyOnServices(t);
    const res = await handshake(
      t.api,
      MCP_PATH,
      rpc('tools/call', { name: 'todos__list', arguments: { organizationId } }),
      token,
    );
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(`Bearer error="invalid_token", resource_metadata="${METADATA}"`);
    expect(res.body.error.code).toBe(RPC_ERRORS.AUTHENTICATION_REQUIRED);
    expect(services.count()).toBe(0);
  });
});

describe('another organization’s records through tools/call', () => {
  async function tenants(t: TestBackend) {
    const a = await owner(t, 'a');
    const b = await owner(t, 'b');
    const created = await t.api
      .post(`/api/v1/organizations/${b.organizationId}/todos`)
      .set(b.user.auth)
      .send({ title: 'B confidential plan', priority: 4 });
    expect(created.status).toBe(201);
    const todoB = created.body.data as { _id: string };
    const readB = async () => {
      const res = await t.api.get(`/api/v1/organizations/${b.organizationId}/todos/${todoB._id}`).set(b.user.auth);
      expect(res.status).toBe(200);
      return res.body.data as Record<string, unknown>;
    };
    return { a, b, todoB, readB };
  }

  it('lets A read and list its own todos (control)', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { a, todoB } = await tenants(t);
    const own = await callToolOk(t.api, MCP_PATH, a.token, 'todos__create', { title: 'A plan' });
    expect(await callToolOk(t.api, MCP_PATH, a.token, 'todos__read', { todoId: own._id })).toMatchObject({
      title: 'A plan',
    });
    const listed = await callToolOk(t.api, MCP_PATH, a.token, 'todos__list');
    const ids = (listed.data as { _id: string }[]).map((todo) => todo._id);
    expect(ids).toEqual([own._id]);
    expect(ids).not.toContain(todoB._id);
  });

  it('answers not found to A addressing B’s organization, before any service call', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { a, b, todoB, readB } = await tenants(t);
    const before = await readB();
    const services = spyOnServices(t);
    const organizationId = b.organizationId;
    const attempts: [string, Record<string, unknown>][] = [
      ['todos__read', { todoId: todoB._id, organizationId }],
      ['todos__list', { organizationId }],
      ['todos__search', { query: 'confidential', organizationId }],
      ['todos__update', { todoId: todoB._id, organizationId, title: 'pwned' }],
      ['todos__complete', { todoId: todoB._id, organizationId }],
      ['todos__delete', { todoId: todoB._id, organizationId }],
    ];
    for (const [name, args] of attempts) {
      const result = await callTool(t.api, MCP_PATH, a.token, name, args);
      expect(toolError(result), name).toEqual({ error: 'not_found', tool: name });
      expect(JSON.stringify(result)).not.toContain('confidential');
    }
    expect(services.count()).toBe(0);
    expect(await readB()).toEqual(before);
  });

  it('answers not found to A naming B’s todo in A’s own organization, and leaves the row unchanged', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { a, todoB, readB } = await tenants(t);
    const before = await readB();
    for (const [name, args] of [
      ['todos__read', { todoId: todoB._id }],
      ['todos__update', { todoId: todoB._id, title: 'pwned', priority: 1 }],
      ['todos__complete', { todoId: todoB._id, note: 'pwned' }],
      ['todos__delete', { todoId: todoB._id }],
    ] as const) {
      const result = await callTool(t.api, MCP_PATH, a.token, name, args);
      expect(toolError(result), name).toEqual({ error: 'not_found', tool: name });
      expect(JSON.stringify(result)).not.toContain('confidential');
    }
    const search = await callToolOk(t.api, MCP_PATH, a.token, 'todos__search', { query: 'confidential plan' });
    expect(search.data).toEqual([]);
    expect(await readB()).toEqual(before);
  });
});

describe('organization selection', () => {
  it('defaults to a person’s only organization', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { organizationId, token } = await owner(t);
    expect(await callToolOk(t.api, MCP_PATH, token, 'todos__create', { title: 'where?' })).toMatchObject({
      organizationId,
    });
  });

  it('defaults to an organization machine’s own organization', async () => {
    await using t = await createTestBackend(database());
    const admin = await signUp(t.api);
    const organizationId = await createOrganization(t.api, admin);
    const key = await organizationApiKey(t.api, admin, organizationId);
    expect(await callToolOk(t.api, MCP_PATH, key, 'todos__create', { title: 'where?' })).toMatchObject({
      organizationId,
    });
  });

  it('asks a person with two organizations which one, and acts in the one named', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { user, organizationId: first, token } = await owner(t);
    const second = await createOrganization(t.api, user, 'Second');
    const services = spyOnServices(t);
    const result = await callTool(t.api, MCP_PATH, token, 'todos__create', { title: 'where?' });
    expect(result._meta?.[GOVERNANCE_META.INPUT_INVALID]).toMatchObject({
      problems: [{ path: 'organizationId', expected: expect.any(String) }],
    });
    expect(services.count()).toBe(0);
    for (const organizationId of [first, second]) {
      expect(
        await callToolOk(t.api, MCP_PATH, token, 'todos__create', { title: 'here', organizationId }),
      ).toMatchObject({ organizationId });
    }
  });

  it('answers not found for an organization the person is not in', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { token } = await owner(t, 'a');
    const other = await owner(t, 'b');
    const services = spyOnServices(t);
    for (const organizationId of [other.organizationId, 'no-such-organization']) {
      const result = await callTool(t.api, MCP_PATH, token, 'todos__create', { title: 'intrude', organizationId });
      expect(toolError(result)).toEqual({ error: 'not_found', tool: 'todos__create' });
    }
    expect(services.count()).toBe(0);
  });
});
