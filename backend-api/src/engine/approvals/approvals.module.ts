import { ContainerModule } from 'inversify';
import { SAAS_SERVICE_TYPES as T, type Clock, type ModuleBase } from '../container/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import type { PublicUrls } from '../public-urls/index.js';
import type { ResourcesRegistry } from '../resources/index.js';
import { APPROVALS_MIGRATIONS } from './approvals.migrations.js';
import { OperationApprovals } from './operation-approvals.service.js';

/** Binds the `approval` step of the dispatch path (`SAAS_SERVICE_TYPES.OperationApprovals`). */
export const approvalsContainerModule = new ContainerModule(({ bind }) => {
  bind(T.OperationApprovals)
    .toDynamicValue((ctx) => {
      const registry = ctx.get<ResourcesRegistry>(T.ResourcesRegistry);
      const urls = ctx.get<PublicUrls>(T.PublicUrls);
      return new OperationApprovals(
        ctx.get<SqlDatabase>(T.Database),
        ctx.get<Clock>(T.Clock),
        (path) => urls.pageUrl(path),
        ({ operation }) => {
          const verb = operation.operation.charAt(0).toUpperCase() + operation.operation.slice(1).replace(/-/g, ' ');
          return `${verb}: ${registry.getResource(operation.resourceType).declaration.displayName}`;
        },
      );
    })
    .inSingletonScope();
});

/** Approvals of operation calls as an engine module: their table and the dispatch step's binding. */
export const approvalsModule: ModuleBase = {
  name: 'wildo-approvals',
  migrations: APPROVALS_MIGRATIONS,
  containerModule: approvalsContainerModule,
};
