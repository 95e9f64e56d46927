import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepUpProof } from '../../testing/credentials.fixtures.js';
import { createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

const database = useTestDatabase();
let t: TestBackend;
let admin: TestUser;
let orgId: string;

beforeAll(async () => {
  t = await createTestBackend(database());
  admin = await signUp(t.api, 'admin');
  orgId = await createOrganization(t.api, admin);
});

afterAll(async () => {
  await t.close();
});

const reauth = () => stepUpProof(t.api, admin);

const kinds = [
  { kind: 'API key', segment: 'api-keys', body: { name: 'integration', roles: ['ORG_MEMBER'] } },
  {
    kind: 'OAuth client',
    segment: 'oauth-clients',
    body: { clientName: 'sync', grantTypes: ['client_credentials'], roles: ['ORG_MEMBER'] },
  },
];

async function createCredential(segment: string, body: object): Promise<string> {
  const res = await t.api.post(`/api/v1/organizations/${orgId}/${segment}`).set(admin.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id as string;
}

function rotate(segment: string, id: string, proof: string, body: object = {}) {
  return t.api
    .post(`/api/v1/organizations/${orgId}/${segment}/${id}/rotate`)
    .set(admin.auth)
    .set('x-reauth-token', proof)
    .send(body);
}

const past = () => new Date(Date.now() - 3_600_000).toISOString();
const tooFar = () => new Date(Date.now() + 91 * 86_400_000).toISOString();

describe('a rotation refused by a check leaves the step-up proof usable', () => {
  it.each(
    kinds.flatMap((k) => [
      { ...k, cutoff: 'in the past', at: past },
      { ...k, cutoff: 'beyond 90 days', at: tooFar },
    ]),
  )(
    '$kind: a cutoff $cutoff is input_invalid on oldKeyInvalidationDate, then the same proof rotates',
    async ({ segment, body, at }) => {
      const id = await createCredential(segment, body);
      const proof = await reauth();
      const refused = await rotate(segment, id, proof, { oldKeyInvalidationDate: at() });
      expect(refused.status).toBe(400);
      expect(refused.body.error.reason).toBe('input_invalid');
      expect(refused.body.error.problems).toEqual([expect.objectContaining({ path: 'oldKeyInvalidationDate' })]);
      const cutoff = new Date(Date.now() + 600_000).toISOString();
      const rotated = await rotate(segment, id, proof, { oldKeyInvalidationDate: cutoff });
      expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    },
  );

  it('API key: rotating an already rotated key is a conflict, then the same proof rotates its replacement', async () => {
    const id = await createCredential('api-keys', kinds[0]!.body);
    const first = await rotate('api-keys', id, await reauth());
    expect(first.status).toBe(200);
    const proof = await reauth();
    expect((await rotate('api-keys', id, proof)).status).toBe(409);
    expect((await rotate('api-keys', first.body.data._id, proof)).status).toBe(200);
  });

  it('OAuth client: a rotation keeping too many secrets is a conflict, then the same proof rotates effective now', async () => {
    const id = await createCredential('oauth-clients', kinds[1]!.body);
    for (let i = 0; i < 4; i++)
      expect(
        (await t.api.post(`/api/v1/organizations/${orgId}/oauth-clients/${id}/regenerate`).set(admin.auth).send({}))
          .status,
      ).toBe(200);
    const proof = await reauth();
    const crowded = await rotate('oauth-clients', id, proof, {
      oldKeyInvalidationDate: new Date(Date.now() + 600_000).toISOString(),
    });
    expect(crowded.status).toBe(409);
    const rotated = await rotate('oauth-clients', id, proof);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.data.plainSecret).toMatch(/^wcs_/);
  });

  it('a proof, once it let a rotation through, is spent', async () => {
    const id = await createCredential('oauth-clients', kinds[1]!.body);
    const proof = await reauth();
    expect((await rotate('oauth-clients', id, proof)).status).toBe(200);
    const reused = await rotate('oauth-clients', id, proof);
    expect(reused.status).toBe(403);
    expect(reused.body.error.reason).toBe('step_up_required');
  });
});
