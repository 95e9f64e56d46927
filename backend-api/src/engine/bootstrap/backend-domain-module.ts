import type { McpApplication, McpModule } from '../mcp/index.js';

/**
 * A unit of an application: its resources, their service code, its agents and tools, its MCP tools and any extra
 * services. Only modules listed in the application's module registry exist; a file on disk registers nothing.
 */
export type BackendDomainModule = McpModule;

/** The application: its module registry and the resource servers it publishes. */
export interface BackendApplicationDefinition extends McpApplication {
  modules: readonly BackendDomainModule[];
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
