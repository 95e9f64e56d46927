import type { ContainerModule } from 'inversify';
import type { SqlMigration } from '../persistence/index.js';

/**
 * What every module gives the container: its name, extra bindings and the migrations of its own tables. Each room
 * that reads modules extends this with what it reads (`ResourcesModule`, `FlowsActorsModule`, `McpModule`); the
 * whole is `BackendDomainModule`.
 */
export interface ModuleBase {
  /** Unique, kebab-case; used in error messages and logs. */
  name: string;
  /** Extra inversify bindings (application services such as `TicketTriageBackendService`). */
  containerModule?: ContainerModule;
  /** Schema migrations for the module's own tables (resource tables are managed by the engine). */
  migrations?: readonly SqlMigration[];
}
