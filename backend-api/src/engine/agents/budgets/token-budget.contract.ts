// The behaviour of SqlTokenBudgetService on an engine (PGlite, PostgreSQL); the test files pick the engine.
import {
  A2A_TOKEN_BUDGET_FEATURE_ID,
  A2ATokenBudgetDenialReason,
  LimitGrantMode,
  type ProductDefinitionInput,
} from '@wildo/shared-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.js';
import { createSilentLogger } from '../../logging/index.js';
import { useSqlDatabaseHarness, type OpenSqlDatabaseHarness } from '../../persistence/sql-database.contract.js';
import type { SqlDatabase } from '../../persistence/sql-database.js';
import { runMigrations } from '../../persistence/sql-migrations.js';
import { SqlTokenBudgetService } from './sql-token-budget.service.js';
import { TOKEN_BUDGET_MIGRATIONS } from './token-budget.migrations.js';
import type { BudgetTenant } from './token-budget.types.js';

const FEATURE = A2A_TOKEN_BUDGET_FEATURE_ID;

/** The catalogue of the suite: organization plans of 1,000 and 5,000 tokens, one granting nothing, a user plan. */
export const BUDGET_TEST_PRODUCTS: ProductDefinitionInput[] = [
  {
    ref: 'starter',
    displayName: 'Starter',
    scope: 'organization',
    grantedLimits: { [FEATURE]: { value: 1_000, mode: LimitGrantMode.SET } },
  },
  {
    ref: 'team',
    displayName: 'Team',
    scope: 'organization',
    grantedLimits: { [FEATURE]: { value: 5_000, mode: LimitGrantMode.SET } },
  },
  {
    ref: 'seats',
    displayName: 'Extra seats',
    scope: 'organization',
    grantedLimits: { 'seats.max': { value: 10, mode: LimitGrantMode.SET } },
  },
  {
    ref: 'personal',
    displayName: 'Personal',
    scope: 'user',
    grantedLimits: { [FEATURE]: { value: 300, mode: LimitGrantMode.SET } },
  },
];

let tenantCounter = 0;
/** An organization no other test uses (the suite shares one database). */
function freshOrganization(): BudgetTenant & { kind: 'organization' } {
  tenantCounter += 1;
  return { kind: 'organization', organizationId: `org-${tenantCounter}-${Math.random().toString(36).slice(2, 8)}` };
}
function freshUser(): BudgetTenant & { kind: 'user' } {
  tenantCounter += 1;
  return { kind: 'user', userId: `user-${tenantCounter}-${Math.random().toString(36).slice(2, 8)}` };
}

/** Records a turn's usage the way the runtime does after a call. */
async function consume(service: SqlTokenBudgetService, tenant: BudgetTenant, tokens: number): Promise<void> {
  await service.recordConsumption(tenant, tokens);
}

export function describeTokenBudgetContract(label: string, open: OpenSqlDatabaseHarness): void {
  describe(`SqlTokenBudgetService: ${label}`, () => {
    const harness = useSqlDatabaseHarness(open);
    const clock = new ManualClock(new Date('2026-03-10T12:00:00.000Z'));
    const serviceOn = (db: SqlDatabase, products: unknown = BUDGET_TEST_PRODUCTS) =>
      new SqlTokenBudgetService(db, { products }, clock, createSilentLogger());
    let service: SqlTokenBudgetService;

    beforeAll(async () => {
      await runMigrations(harness().database, TOKEN_BUDGET_MIGRATIONS, createSilentLogger());
      service = serviceOn(harness().database);
    });

    it('admits without limit when no override, plan or profile applies', async () => {
      const tenant = freshUser();
      await consume(service, tenant, 10_000_000);
      expect(await service.checkAdmission(tenant)).toEqual({
        kind: 'ok',
        allowanceTokens: null,
        consumedTokens: 10_000_000,
        source: 'none',
      });
    });

    it('admits turns while consumed < N, then refuses with the structured reason', async () => {
      clock.set('2026-03-10T12:00:00.000Z');
      const tenant = freshOrganization();
      await service.assignPlan(tenant, 'starter');
      expect(await service.checkAdmission(tenant)).toEqual({
        kind: 'ok',
        allowanceTokens: 1_000,
        consumedTokens: 0,
        source: 'plan',
      });
      await consume(service, tenant, 400);
      await consume(service, tenant, 599);
      expect(await service.checkAdmission(tenant)).toEqual({
        kind: 'ok',
        allowanceTokens: 1_000,
        consumedTokens: 999,
        source: 'plan',
      });
      await consume(service, tenant, 1);
      const refused = {
        kind: 'over_budget',
        reason: A2ATokenBudgetDenialReason.ALLOWANCE_EXHAUSTED,
        allowanceTokens: 1_000,
        consumedTokens: 1_000,
        source: 'plan',
        resetsAt: '2026-04-01T00:00:00.000Z',
      };
      expect(await service.checkAdmission(tenant)).toEqual(refused);
      // A turn admitted before the limit may still finish and add usage beyond it.
      await consume(service, tenant, 250);
      expect(await service.checkAdmission(tenant)).toEqual({ ...refused, consumedTokens: 1_250 });
    });

    it('admits again in a new UTC calendar month (23:59:59.999Z → 00:00Z)', async () => {
      clock.set('2026-01-31T23:59:59.999Z');
      const tenant = freshOrganization();
      await service.assignPlan(tenant, 'starter');
      await consume(service, tenant, 1_000);
      expect(await service.checkAdmission(tenant)).toMatchObject({
        kind: 'over_budget',
        consumedTokens: 1_000,
        resetsAt: '2026-02-01T00:00:00.000Z',
      });

      clock.set('2026-02-01T00:00:00.000Z');
      expect(await service.checkAdmission(tenant)).toEqual({
        kind: 'ok',
        allowanceTokens: 1_000,
        consumedTokens: 0,
        source: 'plan',
      });
      // Usage of a call that ended in January still counts to January.
      await service.recordConsumption(tenant, 7, new Date('2026-01-31T23:59:59.999Z'));
      await service.recordConsumption(tenant, 3);
      expect((await service.status(tenant, new Date('2026-01-15T00:00:00Z'))).consumedTokens).toBe(1_007);
      expect(await service.status(tenant)).toMatchObject({
        consumedTokens: 3,
        period: '2026-02',
        resetsAt: '2026-03-01T00:00:00.000Z',
      });

      clock.set('2026-12-31T23:59:59.999Z');
      await consume(service, tenant, 1_000);
      expect(await service.checkAdmission(tenant)).toMatchObject({
        kind: 'over_budget',
        resetsAt: '2027-01-01T00:00:00.000Z',
      });
      clock.set('2027-01-01T00:00:00.000Z');
      expect(await service.checkAdmission(tenant)).toMatchObject({ kind: 'ok', consumedTokens: 0 });
      clock.set('2026-03-10T12:00:00.000Z');
    });

    it('an override beats the plans, lower or higher, until it expires or is cleared', async () => {
      const tenant = freshOrganization();
      await service.assignPlan(tenant, 'team');
      await consume(service, tenant, 150);
      await service.setOverride(tenant, FEATURE, { value: 100, note: 'abuse review' });
      expect(await service.checkAdmission(tenant)).toMatchObject({
        kind: 'over_budget',
        allowanceTokens: 100,
        consumedTokens: 150,
        source: 'override',
      });

      await service.setOverride(tenant, FEATURE, { value: 1_000_000, expiresAt: new Date('2026-03-11T00:00:00.000Z') });
      expect(await service.checkAdmission(tenant)).toEqual({
        kind: 'ok',
        allowanceTokens: 1_000_000,
        consumedTokens: 150,
        source: 'override',
      });
      expect(await service.resolveLimit(tenant)).toEqual({
        featureId: FEATURE,
        value: 1_000_000,
        source: 'override',
        grantingProductRefs: [],
        overrideExpiresAt: '2026-03-11T00:00:00.000Z',
      });

      clock.set('2026-03-11T00:00:00.000Z');
      expect(await service.checkAdmission(tenant)).toEqual({
        kind: 'ok',
        allowanceTokens: 5_000,
        consumedTokens: 150,
        source: 'plan',
      });
      clock.set('2026-03-10T12:00:00.000Z');

      await service.setOverride(tenant, FEATURE, { value: 0 });
      expect(await service.checkAdmission(tenant)).toMatchObject({
        kind: 'over_budget',
        allowanceTokens: 0,
        source: 'override',
      });
      expect(await service.clearOverride(tenant, FEATURE)).toBe(true);
      expect(await service.clearOverride(tenant, FEATURE)).toBe(false);
      expect(await service.checkAdmission(tenant)).toMatchObject({
        kind: 'ok',
        allowanceTokens: 5_000,
        source: 'plan',
      });
    });

    it('several plans: the largest SET grant applies; plans without the feature grant nothing', async () => {
      const tenant = freshOrganization();
      await service.assignPlan(tenant, 'seats');
      expect(await service.resolveLimit(tenant)).toMatchObject({ value: null, source: 'none' });
      await service.assignPlan(tenant, 'starter');
      await service.assignPlan(tenant, 'team');
      await service.assignPlan(tenant, 'team'); // idempotent
      expect(await service.listPlans(tenant)).toEqual(['seats', 'starter', 'team']);
      expect(await service.resolveLimit(tenant)).toEqual({
        featureId: FEATURE,
        value: 5_000,
        source: 'plan',
        grantingProductRefs: ['team', 'starter'],
      });
      expect(await service.resolveLimit(tenant, 'seats.max')).toMatchObject({
        value: 10,
        source: 'plan',
        grantingProductRefs: ['seats'],
      });

      await consume(service, tenant, 1_200);
      expect(await service.checkAdmission(tenant)).toMatchObject({ kind: 'ok', allowanceTokens: 5_000 });
      expect(await service.removePlan(tenant, 'team')).toBe(true);
      expect(await service.removePlan(tenant, 'team')).toBe(false);
      expect(await service.checkAdmission(tenant)).toMatchObject({
        kind: 'over_budget',
        allowanceTokens: 1_000,
        consumedTokens: 1_200,
      });
    });

    it('plans of one tenant do not apply to another; user plans apply to users', async () => {
      const withPlan = freshOrganization();
      const without = freshOrganization();
      const user = freshUser();
      await service.assignPlan(withPlan, 'starter');
      await service.assignPlan(user, 'personal');
      expect(await service.checkAdmission(without)).toMatchObject({ kind: 'ok', allowanceTokens: null });
      expect(await service.checkAdmission(user)).toMatchObject({ kind: 'ok', allowanceTokens: 300, source: 'plan' });
    });

    it('the application scope gets its allowance from a profile or an override, never a plan', async () => {
      const application: BudgetTenant = { kind: 'application' };
      await expect(service.assignPlan(application, 'team')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      const before = await service.checkAdmission(application);
      expect(before).toMatchObject({ kind: 'ok', allowanceTokens: null, source: 'none' });
      try {
        await service.setProfile('application', FEATURE, before.consumedTokens + 500);
        expect(await service.checkAdmission(application)).toMatchObject({
          kind: 'ok',
          allowanceTokens: before.consumedTokens + 500,
          source: 'profile',
        });
        await consume(service, application, 500);
        expect(await service.checkAdmission(application)).toMatchObject({
          kind: 'over_budget',
          reason: A2ATokenBudgetDenialReason.ALLOWANCE_EXHAUSTED,
          source: 'profile',
        });
        await service.setOverride(application, FEATURE, { value: before.consumedTokens + 800 });
        expect(await service.checkAdmission(application)).toMatchObject({
          kind: 'ok',
          allowanceTokens: before.consumedTokens + 800,
          source: 'override',
        });
      } finally {
        await service.clearOverride(application, FEATURE);
        expect(await service.clearProfile('application', FEATURE)).toBe(true);
      }
      expect(await service.checkAdmission(application)).toMatchObject({ kind: 'ok', allowanceTokens: null });
    });

    it('a profile of a tenant kind is the fallback below plans', async () => {
      const planned = freshOrganization();
      const unplanned = freshOrganization();
      await service.assignPlan(planned, 'starter');
      try {
        await service.setProfile('organization', FEATURE, 50);
        expect(await service.resolveLimit(unplanned)).toMatchObject({ value: 50, source: 'profile' });
        expect(await service.resolveLimit(planned)).toMatchObject({ value: 1_000, source: 'plan' });
      } finally {
        await service.clearProfile('organization', FEATURE);
      }
      expect(await service.resolveLimit(unplanned)).toMatchObject({ value: null, source: 'none' });
    });

    it('refuses plans the catalogue does not list or sells to another scope', async () => {
      const tenant = freshOrganization();
      await expect(service.assignPlan(tenant, 'enterprise')).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        problems: [{ path: 'productRef' }],
      });
      await expect(service.assignPlan(tenant, 'personal')).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('user scope'),
      });
      await expect(service.assignPlan(freshUser(), 'team')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(await service.listPlans(tenant)).toEqual([]);
    });

    it('ignores an assigned plan the catalogue no longer lists', async () => {
      const tenant = freshOrganization();
      await service.assignPlan(tenant, 'team');
      const logger = { ...createSilentLogger(), warnings: [] as unknown[] };
      const shrunk = new SqlTokenBudgetService(
        harness().database,
        { products: BUDGET_TEST_PRODUCTS.filter((p) => p.ref !== 'team') },
        clock,
        {
          ...logger,
          warn: (message: string, fields?: Record<string, unknown>) => void logger.warnings.push({ message, fields }),
        },
      );
      expect(await shrunk.checkAdmission(tenant)).toMatchObject({ kind: 'ok', allowanceTokens: null, source: 'none' });
      expect(logger.warnings).toEqual([
        {
          message: 'a tenant has a plan the product catalogue no longer lists; it grants nothing',
          fields: { productRef: 'team' },
        },
      ]);
    });

    it('loses no concurrent increment, also across replicas and on the first row of a month', async () => {
      const tenant = freshOrganization();
      const replica = serviceOn(await harness().openReplica());
      const amounts = Array.from({ length: 120 }, (_, i) => i + 1);
      await Promise.all(
        amounts.map((tokens, i) => (i % 2 === 0 ? service : replica).recordConsumption(tenant, tokens)),
      );
      const expected = amounts.reduce((sum, n) => sum + n, 0);
      expect((await service.status(tenant)).consumedTokens).toBe(expected);
      const { rows } = await harness().database.query<{ n: string | number }>(
        'SELECT count(*) AS n FROM wildo_feature_consumption WHERE tenant_kind = $1 AND tenant_id = $2',
        ['organization', tenant.organizationId],
      );
      expect(Number(rows[0]?.n)).toBe(1);
      // The day's row is written in the same statement: it agrees with the month's.
      const daily = await service.dailyConsumption(tenant);
      expect(daily.reduce((sum, day) => sum + day.consumedTokens, 0)).toBe(expected);
    });

    it('validates its inputs', async () => {
      const tenant = freshOrganization();
      for (const tokens of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(service.recordConsumption(tenant, tokens)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      }
      await service.recordConsumption(tenant, 0);
      expect((await service.status(tenant)).consumedTokens).toBe(0);
      await expect(service.checkAdmission({ kind: 'organization', organizationId: '' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(service.checkAdmission({ kind: 'tenant' } as unknown as BudgetTenant)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(service.setOverride(tenant, 'Not A Feature', { value: 1 })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(service.setProfile('application', FEATURE, -5)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });
  });
}
