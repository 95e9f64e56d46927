import { ContainerModule } from 'inversify';
import { SAAS_SERVICE_TYPES as T, type Clock, type ModuleBase } from '../container/index.js';
import type { PrimarySecret } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import { AUDIT_MIGRATIONS } from './audit.migrations.js';
import { AuditTrail } from './audit-trail.service.js';

/** Binds the audit trail every dispatched call is recorded in (`SAAS_SERVICE_TYPES.AuditTrail`). */
export const auditContainerModule = new ContainerModule(({ bind }) => {
  bind(T.AuditTrail)
    .toDynamicValue(
      (ctx) =>
        new AuditTrail(
          ctx.get<SqlDatabase>(T.Database),
          ctx.get<PrimarySecret>(T.PrimarySecret).derive('audit-trail'),
          ctx.get<Clock>(T.Clock),
          ctx.get<Logger>(T.Logger),
        ),
    )
    .inSingletonScope();
});

/** The audit trail as an engine module: its tables and its binding. */
export const auditModule: ModuleBase = {
  name: 'wildo-audit',
  migrations: AUDIT_MIGRATIONS,
  containerModule: auditContainerModule,
};
