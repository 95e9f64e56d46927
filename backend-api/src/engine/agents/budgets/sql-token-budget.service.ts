import {
  A2A_TOKEN_BUDGET_FEATURE_ID,
  A2ATokenBudgetDenialReason,
  LimitGrantMode,
  ProductCatalogSchema,
  type ProductDefinition,
} from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../../container/index.js';
import { FrameworkError } from '../../errors/index.js';
import type { Logger } from '../../logging/index.js';
import type { SqlDatabase } from '../../persistence/index.js';
import { utcMonthOf } from './budget-period.js';
import type {
  BudgetTenant,
  BudgetTenantKind,
  CataloguePlan,
  DailyConsumption,
  EffectiveFeatureLimit,
  FeatureOverrideInput,
  TokenBudgetAdministration,
  TokenBudgetDecision,
  TokenBudgetService,
  TokenBudgetStatus,
} from './token-budget.types.js';

/** How long a client should wait before retrying when the budget store is unavailable. */
export const BUDGET_STORE_RETRY_AFTER_SECONDS = 5;

const FEATURE_ID = /^[a-z][a-z0-9._-]{0,126}$/;
const MAX_TENANT_ID_LENGTH = 200;
const TENANT_KINDS: readonly BudgetTenantKind[] = ['organization', 'user', 'application'];

/** One round trip: the override, the active plans, the kind's profile and this month's consumption. */
const SNAPSHOT_SQL = `SELECT
  (SELECT o.value FROM wildo_feature_overrides o
    WHERE o.tenant_kind = $1 AND o.tenant_id = $2 AND o.feature_id = $3 AND (o.expires_at IS NULL OR o.expires_at > $4)) AS override_value,
  (SELECT o.expires_at FROM wildo_feature_overrides o
    WHERE o.tenant_kind = $1 AND o.tenant_id = $2 AND o.feature_id = $3 AND (o.expires_at IS NULL OR o.expires_at > $4)) AS override_expires_at,
  (SELECT coalesce(json_agg(p.product_ref ORDER BY p.product_ref), '[]'::json) FROM wildo_tenant_plans p
    WHERE p.tenant_kind = $1 AND p.tenant_id = $2) AS product_refs,
  (SELECT f.value FROM wildo_feature_profiles f WHERE f.tenant_kind = $1 AND f.feature_id = $3) AS profile_value,
  (SELECT c.consumed FROM wildo_feature_consumption c
    WHERE c.tenant_kind = $1 AND c.tenant_id = $2 AND c.feature_id = $3 AND c.period_start = $5) AS consumed`;

/**
 * Adds to the month's row and the day's row, creating them: one atomic statement, so concurrent increments are
 * never lost and the two never disagree.
 */
const RECORD_SQL = `WITH monthly AS (
  INSERT INTO wildo_feature_consumption AS c (tenant_kind, tenant_id, feature_id, period_start, consumed, updated_at)
  VALUES ($1, $2, $3, $4::date, $5, $6)
  ON CONFLICT (tenant_kind, tenant_id, feature_id, period_start)
  DO UPDATE SET consumed = c.consumed + EXCLUDED.consumed, updated_at = EXCLUDED.updated_at
)
INSERT INTO wildo_feature_consumption_daily AS d (tenant_kind, tenant_id, feature_id, day, consumed, updated_at)
  VALUES ($1, $2, $3, $7::date, $5, $6)
  ON CONFLICT (tenant_kind, tenant_id, feature_id, day)
  DO UPDATE SET consumed = d.consumed + EXCLUDED.consumed, updated_at = EXCLUDED.updated_at`;

/** The days of one month that have consumption, in order. */
const DAILY_SQL = `SELECT to_char(day, 'YYYY-MM-DD') AS day, consumed FROM wildo_feature_consumption_daily
  WHERE tenant_kind = $1 AND tenant_id = $2 AND feature_id = $3 AND day >= $4::date AND day < $5::date
  ORDER BY day`;

interface SnapshotRow {
  override_value: string | number | null;
  override_expires_at: Date | null;
  product_refs: string[] | null;
  profile_value: string | number | null;
  consumed: string | number | null;
}

interface TenantKey {
  kind: BudgetTenantKind;
  id: string;
}

/**
 * The token budget on SQL (PGlite or PostgreSQL). The allowance of `A2A_TOKEN_BUDGET_FEATURE_ID` resolves, in
 * order: an unexpired manual override of the tenant; else the `LimitGrantMode.SET` grants of the tenant's active
 * plans in the product catalogue (runtime `products`), the largest when several plans set it; else the profile
 * of the tenant's kind (the application scope, which has no plan billing rail, gets its allowance here or from an
 * override); else no limit. Consumption is counted per tenant and UTC calendar month.
 *
 * Admission is a comparison (`consumed >= allowance` refuses), not a precharge: turns already running may finish
 * over it. It fails CLOSED: a store that cannot be read refuses with `SERVICE_UNAVAILABLE` (unlike the owner
 * burst throttle, which fails open).
 */
@injectable()
export class SqlTokenBudgetService implements TokenBudgetService, TokenBudgetAdministration {
  private readonly products: ReadonlyMap<string, ProductDefinition>;
  private readonly warnedUnknownPlans = new Set<string>();

  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.RuntimeConfiguration) runtime: unknown,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.Logger) private readonly logger: Logger,
  ) {
    this.products = new Map(catalogueOf(runtime).map((product) => [product.ref, product]));
  }

  async checkAdmission(tenant: BudgetTenant): Promise<TokenBudgetDecision> {
    const key = tenantKeyOf(tenant);
    const now = this.clock.now();
    const month = utcMonthOf(now);
    let row: SnapshotRow;
    try {
      row = await this.snapshot(key, A2A_TOKEN_BUDGET_FEATURE_ID, now, month.startDate);
    } catch (error) {
      this.logger.error('token budget store unavailable: refusing the turn (fail closed)', {
        tenantKind: key.kind,
        error: String(error),
      });
      throw new FrameworkError('SERVICE_UNAVAILABLE', 'The token budget could not be checked; try again shortly.', {
        retryAfterSeconds: BUDGET_STORE_RETRY_AFTER_SECONDS,
        details: { tenantKind: key.kind },
        cause: error,
      });
    }
    const limit = this.resolveFrom(row, key, A2A_TOKEN_BUDGET_FEATURE_ID);
    const consumedTokens = toNumber(row.consumed) ?? 0;
    if (limit.value === null || limit.source === 'none')
      return { kind: 'ok', allowanceTokens: null, consumedTokens, source: 'none' };
    if (consumedTokens >= limit.value) {
      return {
        kind: 'over_budget',
        reason: A2ATokenBudgetDenialReason.ALLOWANCE_EXHAUSTED,
        allowanceTokens: limit.value,
        consumedTokens,
        source: limit.source,
        resetsAt: month.resetsAt.toISOString(),
      };
    }
    return { kind: 'ok', allowanceTokens: limit.value, consumedTokens, source: limit.source };
  }

  async recordConsumption(tenant: BudgetTenant, tokens: number, at?: Date): Promise<void> {
    const key = tenantKeyOf(tenant);
    requireCount(tokens, 'tokens');
    if (tokens === 0) return;
    const when = at ?? this.clock.now();
    const month = utcMonthOf(when);
    const day = when.toISOString().slice(0, 10);
    await this.store('record token consumption', key, () =>
      this.db.query(
        RECORD_SQL,
        [key.kind, key.id, A2A_TOKEN_BUDGET_FEATURE_ID, month.startDate, tokens, this.clock.now(), day],
        { prepare: true },
      ),
    );
  }

  /** What the tenant consumed on each UTC day of the month containing `at` (default now), days without use left out. */
  async dailyConsumption(tenant: BudgetTenant, at?: Date): Promise<DailyConsumption[]> {
    const key = tenantKeyOf(tenant);
    const month = utcMonthOf(at ?? this.clock.now());
    const next = month.resetsAt.toISOString().slice(0, 10);
    const { rows } = await this.store('read daily consumption', key, () =>
      this.db.query<{ day: string; consumed: string | number }>(
        DAILY_SQL,
        [key.kind, key.id, A2A_TOKEN_BUDGET_FEATURE_ID, month.startDate, next],
        { prepare: true },
      ),
    );
    return rows.map((row) => ({ day: row.day, consumedTokens: toNumber(row.consumed) ?? 0 }));
  }

  /** The product catalogue's plans (ref, name, scope, the features they grant), for administration views. */
  catalogue(): CataloguePlan[] {
    return [...this.products.values()].map((product) => ({
      ref: product.ref,
      displayName: product.displayName,
      scope: product.scope,
      featureIds: Object.keys(product.grantedLimits).sort(),
    }));
  }

  async assignPlan(tenant: BudgetTenant, productRef: string): Promise<void> {
    const key = tenantKeyOf(tenant);
    const product = this.products.get(productRef);
    if (!product)
      throw invalid(
        'productRef',
        'a product ref of the runtime product catalogue',
        `No product "${productRef}" exists in the product catalogue.`,
      );
    if (key.kind === 'application') {
      throw invalid(
        'tenant',
        'an organization or user tenant',
        'The application scope has no plans; give it a feature profile or an override instead.',
      );
    }
    if (product.scope !== key.kind) {
      throw invalid(
        'productRef',
        `a product of scope "${key.kind}"`,
        `Product "${productRef}" is sold to the ${product.scope} scope, not to a ${key.kind}.`,
      );
    }
    await this.store('assign a plan', key, () =>
      this.db.query(
        `INSERT INTO wildo_tenant_plans (tenant_kind, tenant_id, product_ref, assigned_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_kind, tenant_id, product_ref) DO NOTHING`,
        [key.kind, key.id, productRef, this.clock.now()],
      ),
    );
  }

  async removePlan(tenant: BudgetTenant, productRef: string): Promise<boolean> {
    const key = tenantKeyOf(tenant);
    const { affectedRows } = await this.store('remove a plan', key, () =>
      this.db.query('DELETE FROM wildo_tenant_plans WHERE tenant_kind = $1 AND tenant_id = $2 AND product_ref = $3', [
        key.kind,
        key.id,
        productRef,
      ]),
    );
    return affectedRows > 0;
  }

  async listPlans(tenant: BudgetTenant): Promise<string[]> {
    const key = tenantKeyOf(tenant);
    const { rows } = await this.store('list plans', key, () =>
      this.db.query<{ product_ref: string }>(
        'SELECT product_ref FROM wildo_tenant_plans WHERE tenant_kind = $1 AND tenant_id = $2 ORDER BY product_ref',
        [key.kind, key.id],
      ),
    );
    return rows.map((row) => row.product_ref);
  }

  async setOverride(tenant: BudgetTenant, featureId: string, override: FeatureOverrideInput): Promise<void> {
    const key = tenantKeyOf(tenant);
    requireFeatureId(featureId);
    requireCount(override.value, 'value');
    if (override.expiresAt !== undefined && Number.isNaN(override.expiresAt.getTime()))
      throw invalid('expiresAt', 'a valid date', 'The override expiry is not a valid date.');
    await this.store('set an override', key, () =>
      this.db.query(
        `INSERT INTO wildo_feature_overrides (tenant_kind, tenant_id, feature_id, value, expires_at, note, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (tenant_kind, tenant_id, feature_id)
         DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at, note = EXCLUDED.note, updated_at = EXCLUDED.updated_at`,
        [
          key.kind,
          key.id,
          featureId,
          override.value,
          override.expiresAt ?? null,
          override.note ?? null,
          this.clock.now(),
        ],
      ),
    );
  }

  async clearOverride(tenant: BudgetTenant, featureId: string): Promise<boolean> {
    const key = tenantKeyOf(tenant);
    requireFeatureId(featureId);
    const { affectedRows } = await this.store('clear an override', key, () =>
      this.db.query(
        'DELETE FROM wildo_feature_overrides WHERE tenant_kind = $1 AND tenant_id = $2 AND feature_id = $3',
        [key.kind, key.id, featureId],
      ),
    );
    return affectedRows > 0;
  }

  async setProfile(kind: BudgetTenantKind, featureId: string, value: number): Promise<void> {
    requireKind(kind);
    requireFeatureId(featureId);
    requireCount(value, 'value');
    await this.store('set a profile', { kind, id: '' }, () =>
      this.db.query(
        `INSERT INTO wildo_feature_profiles (tenant_kind, feature_id, value, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_kind, feature_id) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
        [kind, featureId, value, this.clock.now()],
      ),
    );
  }

  async clearProfile(kind: BudgetTenantKind, featureId: string): Promise<boolean> {
    requireKind(kind);
    requireFeatureId(featureId);
    const { affectedRows } = await this.store('clear a profile', { kind, id: '' }, () =>
      this.db.query('DELETE FROM wildo_feature_profiles WHERE tenant_kind = $1 AND feature_id = $2', [kind, featureId]),
    );
    return affectedRows > 0;
  }

  async resolveLimit(
    tenant: BudgetTenant,
    featureId: string = A2A_TOKEN_BUDGET_FEATURE_ID,
  ): Promise<EffectiveFeatureLimit> {
    const key = tenantKeyOf(tenant);
    requireFeatureId(featureId);
    const now = this.clock.now();
    const row = await this.store('resolve a limit', key, () =>
      this.snapshot(key, featureId, now, utcMonthOf(now).startDate),
    );
    return this.resolveFrom(row, key, featureId);
  }

  /** The live limit (overrides checked against now) and the consumption of the month containing `at`. */
  async status(tenant: BudgetTenant, at?: Date): Promise<TokenBudgetStatus> {
    const key = tenantKeyOf(tenant);
    const now = this.clock.now();
    const month = utcMonthOf(at ?? now);
    const row = await this.store('read a budget', key, () =>
      this.snapshot(key, A2A_TOKEN_BUDGET_FEATURE_ID, now, month.startDate),
    );
    return {
      tenant,
      limit: this.resolveFrom(row, key, A2A_TOKEN_BUDGET_FEATURE_ID),
      consumedTokens: toNumber(row.consumed) ?? 0,
      period: month.period,
      resetsAt: month.resetsAt.toISOString(),
    };
  }

  private async snapshot(key: TenantKey, featureId: string, now: Date, periodStart: string): Promise<SnapshotRow> {
    const { rows } = await this.db.query<SnapshotRow>(SNAPSHOT_SQL, [key.kind, key.id, featureId, now, periodStart], {
      prepare: true,
    });
    const row = rows[0];
    if (!row) throw new Error('The budget snapshot returned no row.');
    return row;
  }

  private resolveFrom(row: SnapshotRow, key: TenantKey, featureId: string): EffectiveFeatureLimit {
    const override = toNumber(row.override_value);
    if (override !== null) {
      return {
        featureId,
        value: override,
        source: 'override',
        grantingProductRefs: [],
        ...(row.override_expires_at ? { overrideExpiresAt: new Date(row.override_expires_at).toISOString() } : {}),
      };
    }
    const grants: { ref: string; value: number }[] = [];
    for (const ref of row.product_refs ?? []) {
      const product = this.products.get(ref);
      if (!product) {
        this.warnUnknownPlan(ref);
        continue;
      }
      if (product.scope !== key.kind) continue;
      const grant = product.grantedLimits[featureId];
      if (grant?.mode === LimitGrantMode.SET) grants.push({ ref, value: grant.value });
    }
    // Several active plans SET the feature: the largest grant applies (a tenant never loses by buying more).
    grants.sort((a, b) => b.value - a.value || (a.ref < b.ref ? -1 : 1));
    const [largest] = grants;
    if (largest)
      return { featureId, value: largest.value, source: 'plan', grantingProductRefs: grants.map((g) => g.ref) };
    const profile = toNumber(row.profile_value);
    if (profile !== null) return { featureId, value: profile, source: 'profile', grantingProductRefs: [] };
    return { featureId, value: null, source: 'none', grantingProductRefs: [] };
  }

  private warnUnknownPlan(ref: string): void {
    if (this.warnedUnknownPlans.has(ref)) return;
    this.warnedUnknownPlans.add(ref);
    this.logger.warn('a tenant has a plan the product catalogue no longer lists; it grants nothing', {
      productRef: ref,
    });
  }

  /** Runs a store statement; a failure becomes `SERVICE_UNAVAILABLE` (logged with its cause, never with values). */
  private async store<T>(what: string, key: TenantKey, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.logger.error(`token budget store failed to ${what}`, { tenantKind: key.kind, error: String(error) });
      throw new FrameworkError('SERVICE_UNAVAILABLE', 'The token budget store is unavailable; try again shortly.', {
        retryAfterSeconds: BUDGET_STORE_RETRY_AFTER_SECONDS,
        details: { operation: what, tenantKind: key.kind },
        cause: error,
      });
    }
  }
}

/** The product catalogue of a runtime configuration (`{}` when the backend runs without one: no plans). */
function catalogueOf(runtime: unknown): ProductDefinition[] {
  const products =
    typeof runtime === 'object' && runtime !== null ? (runtime as { products?: unknown }).products : undefined;
  if (products === undefined) return [];
  const parsed = ProductCatalogSchema.safeParse(products);
  if (!parsed.success) {
    throw new Error(
      `The runtime configuration's product catalogue is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}. Run \`wildo config sync\`.`,
    );
  }
  return parsed.data;
}

function tenantKeyOf(tenant: BudgetTenant): TenantKey {
  switch (tenant?.kind) {
    case 'organization':
      return { kind: 'organization', id: requireTenantId(tenant.organizationId, 'tenant.organizationId') };
    case 'user':
      return { kind: 'user', id: requireTenantId(tenant.userId, 'tenant.userId') };
    case 'application':
      return { kind: 'application', id: '' };
    default:
      throw invalid(
        'tenant.kind',
        'organization, user or application',
        'The budget tenant is not an organization, a user or the application.',
      );
  }
}

function requireTenantId(id: unknown, path: string): string {
  if (typeof id !== 'string' || id === '' || id.length > MAX_TENANT_ID_LENGTH) {
    throw invalid(
      path,
      `a non-empty id of at most ${MAX_TENANT_ID_LENGTH} characters`,
      'The budget tenant has no valid id.',
    );
  }
  return id;
}

function requireKind(kind: BudgetTenantKind): void {
  if (!TENANT_KINDS.includes(kind))
    throw invalid(
      'kind',
      'organization, user or application',
      'The profile kind is not organization, user or application.',
    );
}

function requireFeatureId(featureId: string): void {
  if (typeof featureId !== 'string' || !FEATURE_ID.test(featureId)) {
    throw invalid(
      'featureId',
      'a feature id: lower-case letters, digits, ".", "_" or "-"',
      'The feature id is not valid.',
    );
  }
}

function requireCount(value: number, path: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw invalid(path, 'a non-negative integer', `${path} must be a non-negative integer.`);
}

function invalid(path: string, expected: string, message: string): FrameworkError {
  return new FrameworkError('VALIDATION_FAILED', message, { problems: [{ path, expected }] });
}

function toNumber(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : Number(value);
}
