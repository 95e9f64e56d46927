// The guide's `buildApiKeyMintHandlers(scope, roleHierarchyResolver)` in an application resource of its own,
// with no `credentialGuard()`: the handlers hold the role ceiling themselves, through the engine's hierarchy,
// so a resolver handed in can narrow the ceiling but never open a way above it.
import {
  buildApiKeyMintHandlers,
  createResourceCustomServiceImplementation,
  defineBackendApplication,
  RoleHierarchyResolver,
  type BackendDomainModule,
} from '@wildo-ai/saas-backend-lib';
import {
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  OrganizationApiKeySchema,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo-ai/saas-models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addMember, createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { referenceApplication } from '../index.js';

/** A hierarchy that would let anyone grant anything. */
class GrantsEverything extends RoleHierarchyResolver {
  override isWithin(): boolean {
    return true;
  }
}

/** A hierarchy narrower than the engine's: nobody grants ORG_MANAGER through it. */
class WithholdsManager extends RoleHierarchyResolver {
  override isWithin(role: string, ceiling: readonly string[]): boolean {
    return role !== CORE_ORG_ROLES.ORG_MANAGER && super.isWithin(role, ceiling);
  }
}

const variant = {
  variantType: ResourceOperationVariantType.API_CALL,
  isDefault: true,
  roles: [CORE_ORG_ROLES.ORG_MANAGER],
};

function integrationKeys(type: string, resolver: RoleHierarchyResolver): BackendDomainModule {
  return {
    name: `${type}-module`,
    resources: [
      defineResource({
        type,
        displayName: 'Integration keys',
        primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
        schema: OrganizationApiKeySchema,
        readOnlyFields: ['keyPrefix', 'invalidationDate', 'replacedByKeyId'],
        internalFields: ['hashedKey'],
        responseExtensions: { [CoreResourceOperation.CREATE]: z.object({ plainKey: z.string() }) },
        operationsConfiguration: {
          [CoreResourceOperation.CREATE]: { variants: [variant] },
          [CoreResourceOperation.READ]: { variants: [variant] },
          [CoreResourceOperation.LIST]: { variants: [variant] },
        },
      }),
    ],
    customServiceImplementations: [
      createResourceCustomServiceImplementation(type, buildApiKeyMintHandlers('ORGANIZATION', resolver)),
    ],
  };
}

const database = useTestDatabase();
let t: TestBackend;
let manager: TestUser;
let orgId: string;

beforeAll(async () => {
  const application = defineBackendApplication({
    ...referenceApplication,
    modules: [
      ...referenceApplication.modules,
      integrationKeys('open-keys', new GrantsEverything()),
      integrationKeys('narrow-keys', new WithholdsManager()),
    ],
  });
  t = await createTestBackend(database(), { application });
  const admin = await signUp(t.api, 'admin');
  manager = await signUp(t.api, 'manager');
  orgId = await createOrganization(t.api, admin);
  await addMember(t.api, admin, orgId, manager, 'ORG_MANAGER');
});

afterAll(async () => {
  await t.close();
});

const create = (type: string, roles: string[]) =>
  t.api.post(`/api/v1/organizations/${orgId}/${type}`).set(manager.auth).send({ name: 'integration', roles });
async function count(type: string): Promise<number> {
  const res = await t.api.get(`/api/v1/organizations/${orgId}/${type}`).set(manager.auth);
  expect(res.status).toBe(200);
  return res.body.data.length;
}

describe('the guide’s API-key mint handlers keep the role ceiling', () => {
  it('a resolver that grants everything does not let a manager mint an ORG_ADMIN key', async () => {
    const before = await count('open-keys');
    const res = await create('open-keys', [CORE_ORG_ROLES.ORG_ADMIN]);
    expect(res.status).toBe(403);
    expect(res.body.error.reason).toBe('role_refused');
    expect(JSON.stringify(res.body)).not.toMatch(/plainKey|sk_org_/);
    expect(await count('open-keys')).toBe(before);
  });

  it('mints a key within the manager’s roles: the plaintext once, only the hash stored (positive control)', async () => {
    const res = await create('open-keys', [CORE_ORG_ROLES.ORG_MEMBER]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.plainKey).toMatch(/^sk_org_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    const read = await t.api.get(`/api/v1/organizations/${orgId}/open-keys/${res.body.data._id}`).set(manager.auth);
    expect(read.status).toBe(200);
    expect(read.body.data.keyPrefix).toBe(res.body.data.keyPrefix);
    expect(JSON.stringify(read.body)).not.toMatch(/plainKey|hashedKey/);
  });

  it('a narrower resolver narrows the ceiling: the manager cannot grant ORG_MANAGER through it', async () => {
    const before = await count('narrow-keys');
    const refused = await create('narrow-keys', [CORE_ORG_ROLES.ORG_MANAGER]);
    expect(refused.status).toBe(403);
    expect(refused.body.error.reason).toBe('role_refused');
    expect(await count('narrow-keys')).toBe(before);
    expect((await create('narrow-keys', [CORE_ORG_ROLES.ORG_MEMBER])).status).toBe(201);
  });
});
