import {
  CORE_ORG_ROLES,
  ResourceDescriptionsResponseSchema,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  type ResourceDescription,
} from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientCredentialsToken, createMachineClient } from '../../testing/credentials.fixtures.js';
import { addMember, createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { compileApplicationResources } from '../resources/index.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

const database = useTestDatabase();

describe('GET /organizations/:organizationId/resource-descriptions', () => {
  let t: TestBackend;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let organizationId: string;
  let otherOrganizationId: string;

  beforeAll(async () => {
    t = await createTestBackend(database());
    admin = await signUp(t.api, 'admin');
    member = await signUp(t.api, 'member');
    outsider = await signUp(t.api, 'outsider');
    organizationId = await createOrganization(t.api, admin, 'Acme');
    otherOrganizationId = await createOrganization(t.api, outsider, 'Elsewhere');
    await addMember(t.api, admin, organizationId, member, CORE_ORG_ROLES.ORG_MEMBER);
  });
  afterAll(() => t.close());

  const describeAs = (user: TestUser | null, organization = organizationId) => {
    const request = t.api.get(`/api/v1/organizations/${organization}/resource-descriptions`);
    return user ? request.set(user.auth) : request;
  };
  const descriptionsOf = async (user: TestUser): Promise<ResourceDescription[]> => {
    const res = await describeAs(user);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ResourceDescriptionsResponseSchema.parse(res.body).data;
  };
  const find = (descriptions: ResourceDescription[], type: string) => {
    const found = descriptions.find((description) => description.type === type);
    if (!found) throw new Error(`${type} is not described`);
    return found;
  };

  it('describes the todos: names, fields as JSON Schema, read-only fields, filters, order and operations', async () => {
    const todos = find(await descriptionsOf(admin), 'todos');
    expect(todos).toMatchObject({
      displayName: 'Todos',
      singular: 'todo',
      module: 'tasks-manager',
      builtIn: false,
      path: `/api/v1/organizations/${organizationId}/todos`,
      sort: { order: 'newest_first' },
      pageSize: { default: 20, max: 100 },
    });
    expect(todos.recordSchema).toMatchObject({ type: 'object', properties: { title: { type: 'string' } } });
    expect(todos.readOnlyFields).toEqual(expect.arrayContaining(['_id', 'createdAt', 'completedAt', 'completionNote']));
    expect(todos.readOnlyFields).not.toContain('title');
    expect(todos.filters.map((filter) => filter.name)).toEqual(['status', 'priority', 'assignee']);
    expect(todos.filters[0]).toMatchObject({
      displayName: 'Status',
      schema: { enum: ['todo', 'in_progress', 'done'] },
    });
    const create = todos.operations.find((operation) => operation.operation === 'create');
    expect(create).toMatchObject({ kind: 'core', method: 'POST', target: 'collection', allowed: true });
    expect(create?.inputSchema).toMatchObject({ required: ['title'], additionalProperties: false });
    expect(Object.keys((create?.inputSchema?.properties ?? {}) as object)).not.toContain('completedAt');
    expect(todos.operations.find((operation) => operation.operation === 'complete')).toMatchObject({
      kind: 'custom',
      displayName: 'Complete',
      target: 'instance',
      effect: 'write',
      method: 'POST',
      path: `/api/v1/organizations/${organizationId}/todos/:id/complete`,
      description: 'Marks a todo as done, with an optional closing note.',
    });
  });

  it("marks the engine's own resources as built in", async () => {
    const described = await descriptionsOf(admin);
    const builtIn = described.filter((description) => description.builtIn).map((description) => description.module);
    expect(builtIn.length).toBeGreaterThan(0);
    expect(builtIn.every((module) => module.startsWith('wildo-'))).toBe(true);
  });

  it("offers a member only what a member's role may run, and the server refuses the rest the same way", async () => {
    const forAdmin = find(await descriptionsOf(admin), 'todos');
    const forMember = find(await descriptionsOf(member), 'todos');
    expect(forAdmin.operations.find((operation) => operation.operation === 'delete')?.allowed).toBe(true);
    expect(forMember.operations.find((operation) => operation.operation === 'delete')).toMatchObject({
      allowed: false,
      refusal: 'role_refused',
    });
    expect(forMember.operations.find((operation) => operation.operation === 'update')?.allowed).toBe(true);
  });

  it('agrees with the dispatch path on every operation of the application modules, for a member', async () => {
    const described = (await descriptionsOf(member)).filter(
      // Hotels and agency reports are served by the travel agency's system, which this test does not run.
      (description) => !description.builtIn && description.module !== 'travel-desk',
    );
    expect(described.length).toBeGreaterThan(1);
    const verdicts: string[] = [];
    for (const description of described) {
      for (const operation of description.operations) {
        // An instance operation on an id that names nothing: admitted calls go on to not-found or the input check.
        const path = operation.path.replace(':id', 'no-such-record');
        const call = t.api[operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](path).set(member.auth);
        const res = operation.method === 'GET' || operation.method === 'DELETE' ? await call : await call.send({});
        const refusedByAdmission = res.status === 403;
        verdicts.push(`${description.type}.${operation.operation}: ${operation.allowed} ${!refusedByAdmission}`);
        if (!operation.allowed) expect(res.body.error.reason, path).toBe(operation.refusal);
      }
    }
    for (const verdict of verdicts) expect(verdict).toMatch(/: (true true|false false)$/);
  });

  it("judges an operation's own policies as the dispatch path does (allow list, deny list)", async () => {
    const client = await createMachineClient(t.api, admin, organizationId);
    const machine = { auth: { Authorization: await clientCredentialsToken(t.api, client) } } as TestUser;
    const hotelsFor = async (caller: TestUser) => find(await descriptionsOf(caller), 'hotels');
    const operationOf = (description: ResourceDescription, name: string) =>
      description.operations.find((operation) => operation.operation === name);
    // `pay` admits managers only (an allow list); `book` refuses machines (a deny list).
    const forMember = await hotelsFor(member);
    const forAdmin = await hotelsFor(admin);
    const forMachine = await hotelsFor(machine);
    expect(operationOf(forAdmin, 'pay')?.allowed).toBe(true);
    expect(operationOf(forMember, 'pay')?.allowed).toBe(false);
    expect(operationOf(forMember, 'book')?.allowed).toBe(true);
    expect(operationOf(forMachine, 'book')?.allowed).toBe(false);
    for (const [caller, operation] of [
      [member, operationOf(forMember, 'pay')],
      [machine, operationOf(forMachine, 'book')],
    ] as const) {
      if (!operation) throw new Error('not described');
      const path = operation.path.replace(':id', 'no-such-record');
      const res = await t.api.post(path).set(caller.auth).send({});
      expect([res.status, res.body.error.reason], path).toEqual([403, operation.refusal]);
    }
    // A machine of another organization hears what any outsider hears.
    const foreignClient = await createMachineClient(t.api, outsider, otherOrganizationId);
    const foreign = await t.api
      .get(`/api/v1/organizations/${organizationId}/resource-descriptions`)
      .set({ Authorization: await clientCredentialsToken(t.api, foreignClient) });
    expect(foreign.status).toBe(404);
  });

  it('refuses a request without a session', async () => {
    const res = await describeAs(null);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'no_credential' });
  });

  it('answers not-found for another organization, as for one that does not exist, and describes nothing', async () => {
    const foreign = await describeAs(admin, otherOrganizationId);
    const missing = await describeAs(admin, 'no-such-organization');
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body).toEqual({ error: { ...missing.body.error, requestId: foreign.body.error.requestId } });
    expect(JSON.stringify(foreign.body)).not.toContain('todos');
    // Positive control: its own member is described it.
    expect((await describeAs(outsider, otherOrganizationId)).status).toBe(200);
  });

  it('answers not-found for an organization id no record can have', async () => {
    for (const id of ['%E2%80%AE', 'x'.repeat(300), '..', '%00']) {
      const res = await t.api.get(`/api/v1/organizations/${id}/resource-descriptions`).set(admin.auth);
      expect([400, 404], `${id}: ${res.status}`).toContain(res.status);
      expect(res.body.error).toBeDefined();
    }
  });

  it('refuses query parameters, which it does not take', async () => {
    const res = await describeAs(admin).query({ type: 'todos' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', problems: [{ path: '(query)' }] });
  });

  it('keeps its path: a resource may not take the segment at start', () => {
    const notes = {
      type: 'notes',
      displayName: 'Notes',
      urlSegment: 'resource-descriptions',
      primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
      schema: z.object({ title: z.string() }),
      operationsConfiguration: {
        list: {
          variants: [{ variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
        },
      },
    };
    const compile = (urlSegment: string) =>
      compileApplicationResources({
        name: 'test',
        modules: [{ name: 'notes', resources: [{ ...notes, urlSegment }] }],
      });
    expect(compile('resource-descriptions').problems.map((problem) => problem.path)).toEqual(['urlSegment']);
    expect(compile('notes').problems).toEqual([]);
  });
});
