import { ContainerModule } from 'inversify';
import type { ResourcesModule } from '../../resources/index.js';
import { SAAS_SERVICE_TYPES as T } from '../../container/index.js';
import { SqlTokenBudgetService } from './sql-token-budget.service.js';
import { tokenBudgetsAdminImplementation, tokenUsageImplementation } from './token-budget.custom-impl.service.js';
import { tokenBudgetsAdminResource, tokenUsageResource } from './token-budget.resources.js';
import { TOKEN_BUDGET_MIGRATIONS } from './token-budget.migrations.js';

/**
 * Binds `SAAS_SERVICE_TYPES.TokenBudgetService` to {@link SqlTokenBudgetService} (a singleton). It needs the
 * platform constants `Database`, `RuntimeConfiguration`, `Clock` and `Logger`, which `createWildoBackend` binds.
 */
export const tokenBudgetContainerModule = new ContainerModule(({ bind }) => {
  bind(T.TokenBudgetService).to(SqlTokenBudgetService).inSingletonScope();
});

/**
 * Token budgets as an engine module: its tables (collected by `createWildoBackend`), its binding, and its REST
 * resources (application admins' plans and overrides, members' own consumption) on the dispatch path.
 */
export const tokenBudgetsModule: ResourcesModule = {
  name: 'wildo-token-budgets',
  migrations: TOKEN_BUDGET_MIGRATIONS,
  resources: [tokenBudgetsAdminResource, tokenUsageResource],
  customServiceImplementations: [tokenBudgetsAdminImplementation, tokenUsageImplementation],
  containerModule: tokenBudgetContainerModule,
};
