import { A2A_TOKEN_BUDGET_FEATURE_ID } from '@wildo/shared-lib';
import type { z } from 'zod';
import { SAAS_SERVICE_TYPES } from '../../container/saas-service-types.tokens.js';
import type { SqlDatabase } from '../../persistence/sql-database.js';
import type { ServiceHandlerUtils } from '../../resources/custom-service.js';
import type { ExecutionContext } from '../../resources/execution-context.js';
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
async function requireOrganization(
  organizationId: string,
  utils: ServiceHandlerUtils,
): Promise<Extract<BudgetTenant, { kind: 'organization' }>> {
  const db = utils.resolve<SqlDatabase>(SAAS_SERVICE_TYPES.Database);
  const { rows } = await db.query('SELECT 1 FROM wildo_organizations WHERE id::text = $1', [organizationId]);
  if (rows.length === 0) throw utils.errorBuilder.notFound('No such organization.');
  return { kind: 'organization', organizationId };
}

async function tenantBudget(
  tenant: Extract<BudgetTenant, { kind: 'organization' }>,
  utils: ServiceHandlerUtils,
): Promise<TenantBudget> {
  const budgets = administration(utils);
  const [usage, plans] = await Promise.all([usageOf(budgets, tenant), budgets.listPlans(tenant)]);
  const availablePlans = budgets
    .catalogue()
    .filter((plan) => plan.scope === 'organization')
    .map(({ ref, displayName }) => ({ ref, displayName }));
  return { organizationId: tenant.organizationId, plans, availablePlans, ...usage };
}

/** Application admins' plans and overrides; each operation answers the organization's budget after it. */
export const tokenBudgetsAdminImplementation = tokenBudgetsAdminResource.implement({
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
    await administration(utils).setOverride(tenant, A2A_TOKEN_BUDGET_FEATURE_ID, {
      value: input.value,
      ...(input.expiresAt ? { expiresAt: new Date(input.expiresAt) } : {}),
      ...(input.note ? { note: input.note } : {}),
    });
    return tenantBudget(tenant, utils);
  },
  [TokenBudgets_Operations.CLEAR_OVERRIDE]: async ({ input, utils }) => {
    const tenant = await requireOrganization(input.organizationId, utils);
    await administration(utils).clearOverride(tenant, A2A_TOKEN_BUDGET_FEATURE_ID);
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
