import type {
  AnyResourceDeclaration,
  FlowActorSystem_InitializationFactoryMap,
  FlowsActors_Agent,
  ResourceServerInstance,
} from '@wildo/shared-lib';
import type { ContainerModule } from 'inversify';
import type { FunctionTool } from '../agents/tools/function-tool.types.js';
import type { McpCustomTool } from '../mcp/mcp-tools.types.js';
import type { SqlMigration } from '../persistence/sql-database.js';
import type { ResourceCustomServiceImplementation } from '../resources/custom-service.js';

/** What a module contributes to flows and actors: agents, function tools and actor systems (validated at start). */
export interface FlowsActorsContribution {
  agents?: readonly FlowsActors_Agent[];
  functionTools?: readonly FunctionTool[];
  flowActorSystemsFactoryMap?: FlowActorSystem_InitializationFactoryMap;
}

/**
 * A unit of an application: its resources, their service code, its agents and tools, and any extra
 * services. Only modules listed in the application's module registry exist; a file on disk registers nothing.
 */
export interface BackendDomainModule {
  /** Unique, kebab-case; used in error messages and logs. */
  name: string;
  resources?: readonly AnyResourceDeclaration[];
  customServiceImplementations?: readonly ResourceCustomServiceImplementation[];
  flowsActors?: FlowsActorsContribution;
  /** Extra inversify bindings (application services such as `TicketTriageBackendService`). */
  containerModule?: ContainerModule;
  /** MCP tools the module contributes directly (not derived from resource operations). */
  mcpTools?: readonly McpCustomTool[];
  /** Schema migrations for the module's own tables (resource tables are managed by the engine). */
  migrations?: readonly SqlMigration[];
}

/** The application: its module registry and the resource servers it publishes. */
export interface BackendApplicationDefinition {
  name: string;
  modules: readonly BackendDomainModule[];
  resourceServerInstances?: readonly ResourceServerInstance[];
}

/**
 * Declares the application's module registry.
 *
 * @example
 * export const application = defineBackendApplication({ name: 'wonder-todos', modules: [tasksManagerModule] });
 */
export function defineBackendApplication(definition: BackendApplicationDefinition): BackendApplicationDefinition {
  return definition;
}
