// Token budgets: per-tenant monthly allowances of the A2A token budget feature and their consumption.
export type {
  BudgetTenant,
  BudgetTenantKind,
  EffectiveFeatureLimit,
  FeatureOverrideInput,
  TokenAllowanceSource,
  TokenBudgetAdministration,
  TokenBudgetDecision,
  TokenBudgetService,
  TokenBudgetStatus,
} from './token-budget.types.js';
export { utcMonthOf, type UtcMonthPeriod } from './budget-period.js';
export { BUDGET_STORE_RETRY_AFTER_SECONDS, SqlTokenBudgetService } from './sql-token-budget.service.js';
export { TOKEN_BUDGET_MIGRATIONS } from './token-budget.migrations.js';
export { tokenBudgetContainerModule, tokenBudgetsModule } from './token-budget.module.js';
export { CachedBudgetAdmission } from './cached-budget-admission.js';
export { admitBudget } from './budget-admission.js';
