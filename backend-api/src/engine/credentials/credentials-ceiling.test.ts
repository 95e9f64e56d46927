import { CoreResourceOperation, ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { registerPublicClient } from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import { toFrameworkError } from '../errors/index.js';
import type { TenantScope } from '../persistence/resource-store.js';
import type { ExecutionContext } from '../resources/execution-context.js';
import { validateBody } from '../resources/operation-input.js';
import type { ResourcesRegistry } from '../resources/resources-registry.service.js';
import type { RoleHierarchyResolver } from '../identity/role-hierarchy.service.js';
import type { ServicesRegistryHandler } from '../resources/services-registry-handler.service.js';
import { CREDENTIAL_RESOURCE_TYPES as TYPES, Credentials_Operations } from './credentials.resource-types.js';

const database = useTestDatabase();
let t: TestBackend;
let admin: TestUser;
let manager: TestUser;
let orgId: string;
let keys: string;

beforeAll(async () => {
  t = await createTestBackend(database(), {
    oauth: { dynamicClientRegistration: { enabled: true, maxRegistrationsPerHourPerIp: 100 } },
  });
  admin = await signUp(t.api, 'admin');
  manager = await signUp(t.api, 'manager');
  orgId = await createOrganization(t.api, admin);
  await addMember(t.api, admin, orgId, manager, 'ORG_MANAGER');
  keys = `/api/v1/organizations/${orgId}/api-keys`;
});

afterAll(async () => {
  await t.close();
});

async function createKey(roles: string[]): Promise<{ _id: string; plainKey: string }> {
  const res = await t.api.post(keys).set(admin.auth).send({ name: 'integration', roles });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function keyCount(): Promise<number> {
  const res = await t.api.get(keys).query({ limit: '100' }).set(admin.auth);
  expect(res.status).toBe(200);
  return res.body.data.length;
}

describe('an organization manager and organization API keys (REST)', () => {
  it('cannot regenerate an ORG_ADMIN key: 403 role_refused, no plainKey, no new key written', async () => {
    const target = await createKey(['ORG_ADMIN']);
    const before = await keyCount();
    const res = await t.api.post(`${keys}/${target._id}/regenerate`).set(manager.auth).send({});
    expect(res.status).toBe(403);
    expect(res.body.error.reason).toBe('role_refused');
    expect(JSON.stringify(res.body)).not.toMatch(/plainKey|sk_org_/);
    expect(await keyCount()).toBe(before);
  });

  it('regenerates a key within their roles (positive control)', async () => {
    const target = await createKey(['ORG_MANAGER']);
    const res = await t.api.post(`${keys}/${target._id}/regenerate`).set(manager.auth).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.plainKey).toMatch(/^sk_org_/);
  });

  it.each([
    { roles: ['ORG_ADMIN'], status: 403 },
    { roles: ['ORG_MEMBER', 'ORG_ADMIN'], status: 403 },
    { roles: ['ORG_MANAGER'], status: 201 },
  ])('creating a key with $roles answers $status', async ({ roles, status }) => {
    const res = await t.api.post(keys).set(manager.auth).send({ name: 'mine', roles });
    expect(res.status).toBe(status);
    if (status === 403) expect(res.body.error.reason).toBe('role_refused');
  });

  it.each([
    { roles: ['ORG_ADMIN'], status: 403 },
    { roles: ['ORG_MEMBER'], status: 200 },
  ])('deleting a key with $roles answers $status', async ({ roles, status }) => {
    const target = await createKey(roles);
    const res = await t.api.delete(`${keys}/${target._id}`).set(manager.auth);
    expect(res.status).toBe(status);
    // A refused deletion leaves the key working.
    const probe = await t.api.get(`/api/v1/organizations/${orgId}/todos`).set('Authorization', target.plainKey);
    expect(probe.status).toBe(status === 403 ? 200 : 401);
  });

  it('reads and lists an ORG_ADMIN key’s metadata (no secret in either)', async () => {
    const target = await createKey(['ORG_ADMIN']);
    const read = await t.api.get(`${keys}/${target._id}`).set(manager.auth);
    expect(read.status).toBe(200);
    expect(read.body.data.roles).toEqual(['ORG_ADMIN']);
    const list = await t.api.get(keys).query({ limit: '100' }).set(manager.auth);
    for (const body of [read.body, list.body]) {
      expect(JSON.stringify(body)).not.toMatch(/plainKey|hashedKey/);
      expect(JSON.stringify(body)).not.toContain(target.plainKey.slice(-43));
    }
  });

  it.each([
    { roles: ['ORG_ADMIN'], status: 403 },
    { roles: ['ORG_MANAGER'], status: 200 },
  ])(
    'a machine holding an ORG_MANAGER key regenerating a key with $roles answers $status',
    async ({ roles, status }) => {
      const machine = await createKey(['ORG_MANAGER']);
      const target = await createKey(roles);
      const res = await t.api.post(`${keys}/${target._id}/regenerate`).set('Authorization', machine.plainKey).send({});
      expect(res.status).toBe(status);
      if (status === 403) expect(JSON.stringify(res.body)).not.toContain('plainKey');
    },
  );

  it('has no UPDATE: PUT on a key is 405 and its roles stay', async () => {
    const target = await createKey(['ORG_MEMBER']);
    const res = await t.api
      .put(`${keys}/${target._id}`)
      .set(admin.auth)
      .send({ name: 'x', roles: ['ORG_ADMIN'] });
    expect(res.status).toBe(405);
    expect((await t.api.get(`${keys}/${target._id}`).set(admin.auth)).body.data.roles).toEqual(['ORG_MEMBER']);
  });

  it('keeps dynamic client registration (no roles) working', async () => {
    const clientId = await registerPublicClient(t.api);
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/**
 * The ceiling is the credential resources' own guard in the service pipeline, so it holds for any caller of
 * the pipeline, whatever admission let through. Through routes, OAuth clients and application credentials
 * are managed only by the top role of their scope; these calls reach the pipeline with a lower-role context
 * to prove the one check covers every path of every credential resource.
 */
describe('the role ceiling in the service pipeline', () => {
  type Scope = 'organization' | 'application';
  const kinds = [
    { type: TYPES.ORGANIZATION_API_KEYS, scope: 'organization' as Scope },
    { type: TYPES.APPLICATION_API_KEYS, scope: 'application' as Scope },
    { type: TYPES.ORGANIZATION_OAUTH_CLIENTS, scope: 'organization' as Scope },
    { type: TYPES.APPLICATION_OAUTH_CLIENTS, scope: 'application' as Scope },
  ];
  const ROLES = {
    organization: { top: 'ORG_ADMIN', lower: 'ORG_MANAGER', low: 'ORG_MEMBER' },
    application: { top: 'APP_ADMIN', lower: 'APP_USER', low: 'APP_USER' },
  };
  const paths = ['create', 'rotate', 'regenerate', 'delete'] as const;
  const cases = kinds.flatMap((kind) =>
    paths.flatMap((path) => [
      { ...kind, path, held: 'top' as const, outcome: 'refused' as const },
      { ...kind, path, held: 'low' as const, outcome: 'allowed' as const },
    ]),
  );

  const services = () => t.backend.container.get<ServicesRegistryHandler>(SAAS_SERVICE_TYPES.ServicesRegistryHandler);

  function contextFor(scope: Scope, role: string): ExecutionContext {
    const tenant: TenantScope =
      scope === 'organization' ? { kind: 'organization', organizationId: orgId } : { kind: 'application' };
    const resolver = t.backend.container.get<RoleHierarchyResolver>(SAAS_SERVICE_TYPES.RoleHierarchyResolver);
    return {
      executionType: ExecutionContext_ExecutionType.USER,
      initiatorIds: { userId: manager.userId, ...(scope === 'organization' ? { organizationId: orgId } : {}) },
      initiatorRoles: resolver.expand([role]),
      tenant,
      surface: 'internal',
      requestId: 'ceiling-test',
      callTimestamp: new Date().toISOString(),
    };
  }

  function createInput(type: string, roles: string[]): unknown {
    const registry = t.backend.container.get<ResourcesRegistry>(SAAS_SERVICE_TYPES.ResourcesRegistry);
    const body = type.endsWith('api-keys')
      ? { name: 'pipeline', roles }
      : { clientName: 'pipeline', grantTypes: ['client_credentials'], roles };
    return validateBody(registry.getOperationFromPath(`${type}.create`), body);
  }

  async function createAsTop(type: string, scope: Scope, roles: string[]): Promise<string> {
    const created = await services().executeCoreOperation<{ _id: string }>(
      type,
      CoreResourceOperation.CREATE,
      contextFor(scope, ROLES[scope].top),
      undefined,
      createInput(type, roles),
    );
    return created._id;
  }

  async function count(type: string, scope: Scope): Promise<number> {
    const page = await services().executeCoreOperation<{ data: unknown[] }>(
      type,
      CoreResourceOperation.LIST,
      contextFor(scope, ROLES[scope].top),
      undefined,
      undefined,
      { query: { limit: 1000 } },
    );
    return page.data.length;
  }

  /** Runs one path as the scope's lower role against a credential holding `roles`; counts gate passages. */
  async function attempt(type: string, scope: Scope, path: (typeof paths)[number], roles: string[]) {
    const context = contextFor(scope, ROLES[scope].lower);
    let gatePassed = 0;
    const gate = async () => {
      gatePassed++;
    };
    if (path === 'create') {
      const run = () =>
        services().executeCoreOperation(
          type,
          CoreResourceOperation.CREATE,
          context,
          undefined,
          createInput(type, roles),
        );
      return { run, gatePassed: () => gatePassed };
    }
    const id = await createAsTop(type, scope, roles);
    const run =
      path === 'delete'
        ? () => services().executeCoreOperation(type, CoreResourceOperation.DELETE, context, id, undefined, { gate })
        : () =>
            services().executeCustomOperation(
              type,
              path === 'rotate' ? Credentials_Operations.ROTATE : Credentials_Operations.REGENERATE,
              context,
              id,
              {},
              { gate },
            );
    return { run, gatePassed: () => gatePassed, id };
  }

  it.each(cases)(
    '$type $path of a credential with the $held role is $outcome for a lower-role caller',
    async ({ type, scope, path, held, outcome }) => {
      const roles = [ROLES[scope][held]];
      const { run, gatePassed, id } = await attempt(type, scope, path, roles);
      const before = await count(type, scope);
      const result = await run().then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error: toFrameworkError(error) }),
      );
      if (outcome === 'allowed') {
        expect(result.ok, JSON.stringify(result)).toBe(true);
        if (path !== 'delete') expect(JSON.stringify(result)).toMatch(/plainKey|plainSecret/);
        return;
      }
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect({ code: result.error.code, reason: result.error.reason }).toEqual({
          code: 'FORBIDDEN',
          reason: 'role_refused',
        });
      // Refused before any write and before the step-up gate.
      expect(await count(type, scope)).toBe(before);
      expect(gatePassed()).toBe(0);
      if (id) {
        const read = await services().executeCoreOperation(
          type,
          CoreResourceOperation.READ,
          contextFor(scope, ROLES[scope].top),
          id,
        );
        expect(read).toMatchObject({ _id: id, roles });
      }
    },
  );

  it('refuses a step-up operation called without a gate (no proof can be presented), before any write', async () => {
    const id = await createAsTop(TYPES.ORGANIZATION_API_KEYS, 'organization', ['ORG_MEMBER']);
    const before = await count(TYPES.ORGANIZATION_API_KEYS, 'organization');
    const rotate = services().executeCustomOperation(
      TYPES.ORGANIZATION_API_KEYS,
      Credentials_Operations.ROTATE,
      contextFor('organization', 'ORG_ADMIN'),
      id,
      {},
    );
    await expect(rotate).rejects.toMatchObject({ code: 'FORBIDDEN', reason: 'step_up_required' });
    expect(await count(TYPES.ORGANIZATION_API_KEYS, 'organization')).toBe(before);
  });

  it.each(kinds)('$type declares no UPDATE, so no path writes roles', ({ type }) => {
    const registry = t.backend.container.get<ResourcesRegistry>(SAAS_SERVICE_TYPES.ResourcesRegistry);
    expect(registry.findOperation(`${type}.update`)).toBeUndefined();
  });
});
