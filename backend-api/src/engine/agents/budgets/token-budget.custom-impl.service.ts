import { A2A_TOKEN_BUDGET_FEATURE_ID } from '@wildo/shared-lib';
import type { z } from 'zod';
import { SAAS_SERVICE_TYPES } from '../../container/index.js';
import type { SqlDatabase } from '../../persistence/index.js';
import type { ExecutionContext, ServiceHandlerUtils } from '../../resources/index.js';
import {
  tokenBudgetsAdminResource,
  tokenUsageResource,
  TokenBudgets_Operations,
  TokenUsage_Operations,
  type TenantBudgetSchema,
  type TokenUsageSchema,
} from './token-budget.resources.js';
import type { BudgetTenant, TokenBudgetAdministration } from './token-budget.types.js';

type TokenUsage = z.infer<typeof TokenUsageSchema>;
type TenantBudget = z.infer<typeof TenantBudgetSchema>;
type OrganizationTenant = Extract<BudgetTenant, { kind: 'organization' }> & { name: string };

/** How many organizations the picker lists at most (narrowed by name beyond that). */
const ORGANIZATION_CHOICES_LIMIT = 200;

function administration(utils: ServiceHandlerUtils): TokenBudgetAdministration {
  return utils.resolve<TokenBudgetAdministration>(SAAS_SERVICE_TYPES.TokenBudgetService);
}

/** Consumption this UTC month against the allowance, with the days that had use. */
async function usageOf(budgets: TokenBudgetAdministration, tenant: BudgetTenant): Promise<TokenUsage> {
  const [status, daily] = await Promise.all([budgets.status(tenant), budgets.dailyConsumption(tenant)]);
  const { featureId: _featureId, ...allowance } = status.limit;
  return { allowance, consumedTokens: status.consumedTokens, period: status.period, resetsAt: status.resetsAt, daily };
}

/** Refuses an organization that does not exist (an override for nobody would be kept for nobody). */
async function requireOrganization(organizationId: string, utils: ServiceHandlerUtils): Promise<OrganizationTenant> {
  const db = utils.resolve<SqlDatabase>(SAAS_SERVICE_TYPES.Database);
  const { rows } = await db.query<{ name: string }>('SELECT name FROM wildo_organizations WHERE id::text = $1', [
    organizationId,
  ]);
  if (!rows[0]) throw utils.errorBuilder.notFound('No such organization.');
  return { kind: 'organization', organizationId, name: rows[0].name };
}

/** The catalogue's organization plans. */
function organizationPlans(budgets: TokenBudgetAdministration) {
  return budgets.catalogue().filter((plan) => plan.scope === 'organization');
}

/**
 * The features an organization's limit can be set for: the token budget (metered by the runtime) and every
 * feature an organization plan grants. An override of anything else would be kept but never read.
 */
function budgetedFeatures(budgets: TokenBudgetAdministration): string[] {
  const granted = new Set(organizationPlans(budgets).flatMap((plan) => plan.featureIds));
  granted.delete(A2A_TOKEN_BUDGET_FEATURE_ID);
  return [A2A_TOKEN_BUDGET_FEATURE_ID, ...[...granted].sort()];
}

/** The override's feature (the token budget when left out); refuses one no plan budgets. */
function featureOf(requested: string | undefined, budgets: TokenBudgetAdministration, utils: ServiceHandlerUtils) {
  const featureId = requested ?? A2A_TOKEN_BUDGET_FEATURE_ID;
  const features = budgetedFeatures(budgets);
  if (!features.includes(featureId)) {
    throw utils.errorBuilder.badRequest('No plan budgets this feature.', [
      { path: 'featureId', expected: `one of ${features.join(', ')}` },
    ]);
  }
  return featureId;
}

async function tenantBudget(tenant: OrganizationTenant, utils: ServiceHandlerUtils): Promise<TenantBudget> {
  const budgets = administration(utils);
  const target: BudgetTenant = { kind: 'organization', organizationId: tenant.organizationId };
  const [usage, plans, features] = await Promise.all([
    usageOf(budgets, target),
    budgets.listPlans(target),
    Promise.all(budgetedFeatures(budgets).map((featureId) => budgets.resolveLimit(target, featureId))),
  ]);
  const availablePlans = organizationPlans(budgets).map(({ ref, displayName }) => ({ ref, displayName }));
  return {
    organizationId: tenant.organizationId,
    organizationName: tenant.name,
    plans,
    availablePlans,
    features,
    ...usage,
  };
}

/** Application admins' plans and overrides; each operation answers the organization's budget after it. */
export const tokenBudgetsAdminImplementation = tokenBudgetsAdminResource.implement({
  [TokenBudgets_Operations.ORGANIZATIONS]: async ({ input, utils }) => {
    const db = utils.resolve<SqlDatabase>(SAAS_SERVICE_TYPES.Database);
    // position() rather than LIKE: the text is matched as typed, with no wildcard to escape.
    const { rows } = await db.query<{ id: string; name: string }>(
      `SELECT id::text AS id, name FROM wildo_organizations
       WHERE $1::text IS NULL OR position(lower($1::text) in lower(name)) > 0
       ORDER BY lower(name), id LIMIT $2`,
      [input.nameContains?.trim() || null, ORGANIZATION_CHOICES_LIMIT + 1],
    );
    return {
      organizations: rows.slice(0, ORGANIZATION_CHOICES_LIMIT).map((row) => ({ _id: row.id, name: row.name })),
      truncated: rows.length > ORGANIZATION_CHOICES_LIMIT,
    };
  },
  [TokenBudgets_Operations.TENANT]: async ({ input, utils }) => {
    return tenantBudget(await requireOrganization(input.organizationId, utils), utils);
  },
  [TokenBudgets_Operations.ASSIGN_PLAN]: async ({ input, utils }) => {
    const tenant = await requireOrganization(input.organizationId, utils);
    await administration(utils).assignPlan(tenant, input.productRef);
    return tenantBudget(tenant, utils);
  },
  [TokenBudgets_Operations.REMOVE_PLAN]: async ({ input, utils }) => {
    const tenant = await requireOrganization(input.organizationId, utils);
    if (!(await administration(utils).removePlan(tenant, input.productRef)))
      throw utils.errorBuilder.notFound('The organization does not have this plan.');
    return tenantBudget(tenant, utils);
  },
  [TokenBudgets_Operations.SET_OVERRIDE]: async ({ input, utils }) => {
    const tenant = await requireOrganization(input.organizationId, utils);
    if (input.expiresAt && new Date(input.expiresAt).getTime() <= utils.now().getTime()) {
      throw utils.errorBuilder.badRequest('The override must expire in the future.', [
        { path: 'expiresAt', expected: 'an instant in the future' },
      ]);
    }
    const budgets = administration(utils);
    await budgets.setOverride(tenant, featureOf(input.featureId, budgets, utils), {
      value: input.value,
      ...(input.expiresAt ? { expiresAt: new Date(input.expiresAt) } : {}),
      ...(input.note ? { note: input.note } : {}),
    });
    return tenantBudget(tenant, utils);
  },
  [TokenBudgets_Operations.CLEAR_OVERRIDE]: async ({ input, utils }) => {
    const tenant = await requireOrganization(input.organizationId, utils);
    const budgets = administration(utils);
    await budgets.clearOverride(tenant, featureOf(input.featureId, budgets, utils));
    return tenantBudget(tenant, utils);
  },
});

function organizationOf(context: ExecutionContext, utils: ServiceHandlerUtils): BudgetTenant {
  if (context.tenant.kind !== 'organization') throw utils.errorBuilder.notFound();
  return context.tenant;
}

/** Members read their organization's consumption this month. */
export const tokenUsageImplementation = tokenUsageResource.implement({
  [TokenUsage_Operations.CURRENT]: async ({ executionContext, utils }) =>
    usageOf(administration(utils), organizationOf(executionContext, utils)),
});
