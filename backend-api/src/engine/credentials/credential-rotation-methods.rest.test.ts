import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepUpProof } from '../../testing/credentials.fixtures.js';
import { addMember, createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { StepUpService } from '../identity/step-up.service.js';

// The guide rotates with PUT on the key's ROTATE URL; POST, the route's first method, still works. Both
// methods reach the same operation, so its role, step-up and ceiling checks are the same checks.

const database = useTestDatabase();
let t: TestBackend;
let admin: TestUser;
let manager: TestUser;
let orgId: string;

beforeAll(async () => {
  t = await createTestBackend(database());
  admin = await signUp(t.api, 'admin');
  manager = await signUp(t.api, 'manager');
  orgId = await createOrganization(t.api, admin);
  await addMember(t.api, admin, orgId, manager, 'ORG_MANAGER');
});

afterAll(async () => {
  await t.close();
});

const kinds = [
  { kind: 'API key', segment: 'api-keys', body: { name: 'integration', roles: ['ORG_MEMBER'] }, secret: 'plainKey' },
  {
    kind: 'OAuth client',
    segment: 'oauth-clients',
    body: { clientName: 'sync', grantTypes: ['client_credentials'], roles: ['ORG_MEMBER'] },
    secret: 'plainSecret',
  },
] as const;
const methods = ['put', 'post'] as const;
type Method = (typeof methods)[number];

async function createCredential(segment: string, body: object): Promise<string> {
  const res = await t.api.post(`/api/v1/organizations/${orgId}/${segment}`).set(admin.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id as string;
}

function rotate(method: Method, segment: string, id: string, as: TestUser, proof?: string, body: object = {}) {
  const request = t.api[method](`/api/v1/organizations/${orgId}/${segment}/${id}/rotate`).set(as.auth);
  return (proof ? request.set('x-reauth-token', proof) : request).send(body);
}

/** The refusal as a client sees it, without the per-request id. */
function refusal(res: { status: number; body: { error: Record<string, unknown> } }) {
  const { requestId: _requestId, ...error } = res.body.error;
  return { status: res.status, error };
}

const inTenMinutes = () => new Date(Date.now() + 600_000).toISOString();

describe('ROTATE answers PUT (the guide) and POST', () => {
  it.each(kinds.flatMap((k) => methods.map((method) => ({ ...k, method }))))(
    '$kind with $method: an ORG_ADMIN with a fresh proof gets the new secret once and the cutoff',
    async ({ segment, body, secret, method }) => {
      const id = await createCredential(segment, body);
      const cutoff = inTenMinutes();
      const res = await rotate(method, segment, id, admin, await stepUpProof(t.api, admin), {
        oldKeyInvalidationDate: cutoff,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data[secret]).toEqual(expect.any(String));
      expect(res.body.data[segment === 'api-keys' ? 'oldKeyInvalidationDate' : 'oldSecretInvalidationDate']).toBe(
        cutoff,
      );
    },
  );

  it('the guide’s PUT flow replaces an API key: the new key works, the old one until its cutoff', async () => {
    const created = await t.api.post(`/api/v1/organizations/${orgId}/api-keys`).set(admin.auth).send(kinds[0].body);
    const todos = `/api/v1/organizations/${orgId}/todos`;
    const res = await rotate('put', 'api-keys', created.body.data._id, admin, await stepUpProof(t.api, admin), {
      oldKeyInvalidationDate: inTenMinutes(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.oldKeyId).toBe(created.body.data._id);
    expect((await t.api.get(todos).set('Authorization', res.body.data.plainKey)).status).toBe(200);
    expect((await t.api.get(todos).set('Authorization', created.body.data.plainKey)).status).toBe(200);
  });

  it.each(kinds)(
    '$kind: without a proof, PUT and POST refuse alike with step_up_required and change nothing',
    async ({ segment, body, secret }) => {
      const id = await createCredential(segment, body);
      const [put, post] = [await rotate('put', segment, id, admin), await rotate('post', segment, id, admin)];
      expect(refusal(put)).toEqual(refusal(post));
      expect(put.status).toBe(403);
      expect(put.body.error.reason).toBe('step_up_required');
      expect(JSON.stringify(put.body)).not.toContain(secret);
      // Positive control: the credential is intact and rotates with a proof.
      expect((await rotate('put', segment, id, admin, await stepUpProof(t.api, admin))).status).toBe(200);
    },
  );

  it.each(kinds)(
    '$kind: a proof spent by a PUT rotation opens no other rotation, by POST or PUT',
    async ({ segment, body }) => {
      const proof = await stepUpProof(t.api, admin);
      expect((await rotate('put', segment, await createCredential(segment, body), admin, proof)).status).toBe(200);
      const other = await createCredential(segment, body);
      const [put, post] = [
        await rotate('put', segment, other, admin, proof),
        await rotate('post', segment, other, admin, proof),
      ];
      expect(refusal(put)).toEqual(refusal(post));
      expect(put.body.error.reason).toBe('step_up_required');
    },
  );

  it.each(kinds)(
    '$kind: a caller below the rotation’s role is refused alike by PUT and POST, and their proof stays usable',
    async ({ segment, body }) => {
      const id = await createCredential(segment, body);
      const proof = await stepUpProof(t.api, manager);
      const [put, post] = [
        await rotate('put', segment, id, manager, proof),
        await rotate('post', segment, id, manager, proof),
      ];
      expect(refusal(put)).toEqual(refusal(post));
      expect(put.status).toBe(403);
      expect(put.body.error.reason).toBe('role_refused');
      // The refusal came before the step-up gate: the manager's proof still opens an operation that needs one.
      expect(
        await t.backend.container.get<StepUpService>(SAAS_SERVICE_TYPES.StepUpService).consume(proof, manager.userId),
      ).toBe(true);
    },
  );

  it('the ROTATE route answers exactly PUT and POST', async () => {
    const id = await createCredential('api-keys', kinds[0].body);
    const res = await t.api.get(`/api/v1/organizations/${orgId}/api-keys/${id}/rotate`).set(admin.auth);
    expect(res.status).toBe(405);
    expect(res.get('allow')).toBe('POST, PUT');
  });
});
