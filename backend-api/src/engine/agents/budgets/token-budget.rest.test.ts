import { A2A_TOKEN_BUDGET_FEATURE_ID, LimitGrantMode } from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGeneratedRuntime } from '../../../testing/generated-runtime.js';
import { ManualClock } from '../../../testing/manual-clock.js';
import {
  addMember,
  createOrganization,
  signUp,
  signUpAppAdmin,
  type TestUser,
} from '../../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../../container/saas-service-types.tokens.js';
import type { TokenBudgetService } from './token-budget.types.js';

const ADMIN = '/api/v1/token-budgets';
/** A second budgeted feature, granted by a plan the test adds to the reference catalogue. */
const SEATS = 'todos.seats.max';

describe('token budgets over REST: application admins assign plans and overrides, members read their usage', () => {
  const database = useTestDatabase();
  const clock = new ManualClock(new Date('2026-03-10T12:00:00Z'));
  let t: TestBackend;
  let appAdmin: TestUser;
  let owner: TestUser;
  let member: TestUser;
  let orgId: string;

  beforeAll(async () => {
    // The reference catalogue budgets tokens only; a seats plan makes a second budgeted feature.
    const runtime = await readGeneratedRuntime();
    const seatsPlan = {
      ref: 'todos.seats',
      displayName: 'Todos Seats',
      scope: 'organization' as const,
      grantedLimits: { [SEATS]: { value: 10, mode: LimitGrantMode.SET } },
    };
    t = await createTestBackend(database(), {
      clock,
      runtime: { ...runtime, products: [...runtime.products, seatsPlan] },
    });
    appAdmin = await signUpAppAdmin(t);
    owner = await signUp(t.api, 'owner');
    member = await signUp(t.api, 'member');
    orgId = await createOrganization(t.api, owner);
    await addMember(t.api, owner, orgId, member, 'ORG_MEMBER');
  });
  afterAll(async () => t?.close());

  const usage = (user: TestUser) =>
    t.api.post(`/api/v1/organizations/${orgId}/token-usage/current`).set(user.auth).send({});

  it('assigns a plan, overrides it, clears the override; each answer is the tenant budget after the change', async () => {
    const before = await t.api.post(`${ADMIN}/tenant`).set(appAdmin.auth).send({ organizationId: orgId });
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.data).toMatchObject({
      organizationId: orgId,
      plans: [],
      allowance: { value: null, source: 'none' },
      availablePlans: [
        { ref: 'todos.team', displayName: 'Todos Team' },
        { ref: 'todos.seats', displayName: 'Todos Seats' },
      ],
      period: '2026-03',
    });
    expect(before.body.data.organizationName).toEqual(expect.any(String));

    const assigned = await t.api
      .post(`${ADMIN}/assign-plan`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, productRef: 'todos.team' });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body.data).toMatchObject({
      plans: ['todos.team'],
      allowance: { value: 100_000, source: 'plan', grantingProductRefs: ['todos.team'] },
    });

    const overridden = await t.api
      .post(`${ADMIN}/set-override`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, value: 250_000, expiresAt: '2026-04-30T00:00:00Z', note: 'pilot' });
    expect(overridden.status, JSON.stringify(overridden.body)).toBe(200);
    expect(overridden.body.data.allowance).toMatchObject({ value: 250_000, source: 'override' });
    expect(overridden.body.data).not.toHaveProperty('note');

    const cleared = await t.api.post(`${ADMIN}/clear-override`).set(appAdmin.auth).send({ organizationId: orgId });
    expect(cleared.body.data.allowance).toMatchObject({ value: 100_000, source: 'plan' });

    const removed = await t.api
      .post(`${ADMIN}/remove-plan`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, productRef: 'todos.team' });
    expect(removed.body.data).toMatchObject({ plans: [], allowance: { source: 'none' } });
    await t.api
      .post(`${ADMIN}/assign-plan`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, productRef: 'todos.team' })
      .expect(200);
  });

  it('refuses organization admins, unknown plans and organizations, past expiries and bad values, changing nothing', async () => {
    // Positive control above; an ORG_ADMIN is no application admin.
    const byOwner = await t.api
      .post(`${ADMIN}/set-override`)
      .set(owner.auth)
      .send({ organizationId: orgId, value: 1_000_000 });
    expect(byOwner.status).toBe(403);
    expect(byOwner.body.error.reason).toBe('role_refused');

    const unknownPlan = await t.api
      .post(`${ADMIN}/assign-plan`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, productRef: 'gold.forever' });
    expect(unknownPlan.status).toBe(400);

    const unknownOrg = await t.api
      .post(`${ADMIN}/tenant`)
      .set(appAdmin.auth)
      .send({ organizationId: '00000000-0000-4000-8000-000000000000' });
    expect(unknownOrg.status).toBe(404);

    const past = await t.api
      .post(`${ADMIN}/set-override`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, value: 5, expiresAt: '2026-03-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.error.problems).toEqual([{ path: 'expiresAt', expected: 'an instant in the future' }]);

    const negative = await t.api
      .post(`${ADMIN}/set-override`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, value: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.error.problems[0].path).toBe('value');

    const after = await t.api.post(`${ADMIN}/tenant`).set(appAdmin.auth).send({ organizationId: orgId });
    expect(after.body.data.allowance).toMatchObject({ value: 100_000, source: 'plan' });
  });

  it('lists the organizations by name for application admins only, filtered by a part of the name', async () => {
    const named = await t.api.post('/api/v1/organizations').set(owner.auth).send({ name: 'Zeta 100% Widgets' });
    expect(named.status).toBe(201);
    const all = await t.api.post(`${ADMIN}/organizations`).set(appAdmin.auth).send({});
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data.truncated).toBe(false);
    expect(all.body.data.organizations).toContainEqual({ _id: orgId, name: expect.any(String) });
    // The text is matched as typed: `%` is no wildcard.
    const filtered = await t.api.post(`${ADMIN}/organizations`).set(appAdmin.auth).send({ nameContains: '100% WID' });
    expect(filtered.body.data.organizations).toEqual([{ _id: named.body.data._id, name: 'Zeta 100% Widgets' }]);
    const wildcard = await t.api.post(`${ADMIN}/organizations`).set(appAdmin.auth).send({ nameContains: '%' });
    expect(wildcard.body.data.organizations).toEqual([{ _id: named.body.data._id, name: 'Zeta 100% Widgets' }]);

    // An organization admin (or any member) is no application admin.
    const byOwner = await t.api.post(`${ADMIN}/organizations`).set(owner.auth).send({});
    expect(byOwner.status).toBe(403);
    expect(byOwner.body.error.reason).toBe('role_refused');
    expect(JSON.stringify(byOwner.body)).not.toContain('Zeta');
  });

  it('overrides every budgeted feature, not only the token budget; refuses a feature no plan budgets', async () => {
    const features = async () =>
      (await t.api.post(`${ADMIN}/tenant`).set(appAdmin.auth).send({ organizationId: orgId })).body.data.features;
    expect(await features()).toEqual([
      { featureId: A2A_TOKEN_BUDGET_FEATURE_ID, value: 100_000, source: 'plan', grantingProductRefs: ['todos.team'] },
      { featureId: SEATS, value: null, source: 'none', grantingProductRefs: [] },
    ]);
    const seats = await t.api
      .post(`${ADMIN}/set-override`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, featureId: SEATS, value: 25 });
    expect(seats.status, JSON.stringify(seats.body)).toBe(200);
    expect(seats.body.data.features[1]).toEqual({
      featureId: SEATS,
      value: 25,
      source: 'override',
      grantingProductRefs: [],
    });
    // The token budget is untouched by the other feature's override.
    expect(seats.body.data.allowance).toMatchObject({ value: 100_000, source: 'plan' });

    const unknown = await t.api
      .post(`${ADMIN}/set-override`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, featureId: 'todos.storage.bytes', value: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.problems).toEqual([
      { path: 'featureId', expected: `one of ${A2A_TOKEN_BUDGET_FEATURE_ID}, ${SEATS}` },
    ]);

    const cleared = await t.api
      .post(`${ADMIN}/clear-override`)
      .set(appAdmin.auth)
      .send({ organizationId: orgId, featureId: SEATS });
    expect(cleared.body.data.features[1]).toMatchObject({ value: null, source: 'none' });
  });

  it('shows members their consumption this UTC month against the allowance, per day; outsiders get not found', async () => {
    const budgets = t.backend.container.get<TokenBudgetService>(SAAS_SERVICE_TYPES.TokenBudgetService);
    const tenant = { kind: 'organization', organizationId: orgId } as const;
    await budgets.recordConsumption(tenant, 1_200, new Date('2026-03-02T08:00:00Z'));
    await budgets.recordConsumption(tenant, 300, new Date('2026-03-02T23:59:59Z'));
    await budgets.recordConsumption(tenant, 4_000, new Date('2026-03-09T00:00:00Z'));
    // Last month's use counts neither in the total nor in the chart.
    await budgets.recordConsumption(tenant, 9_999, new Date('2026-02-28T23:00:00Z'));

    const res = await usage(member);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      allowance: { value: 100_000, source: 'plan', grantingProductRefs: ['todos.team'] },
      consumedTokens: 5_500,
      period: '2026-03',
      resetsAt: '2026-04-01T00:00:00.000Z',
      daily: [
        { day: '2026-03-02', consumedTokens: 1_500 },
        { day: '2026-03-09', consumedTokens: 4_000 },
      ],
    });

    const outsider = await signUp(t.api, 'outsider');
    expect((await usage(outsider)).status).toBe(404);
  });
});
