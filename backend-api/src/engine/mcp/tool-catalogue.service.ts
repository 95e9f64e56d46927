import { CoreResourceOperation, ResourceOperationEffect, ResourceOperationRiskLevel, ResourcePrimaryScope, ResourceServerKind } from '@wildo/shared-lib';
import { z } from 'zod';
import type { BackendApplicationDefinition } from '../container/backend-domain-module.js';
import type { Logger } from '../logging/index.js';
import type { CompiledOperation, CompiledResource } from '../resources/compiled-resource.types.js';
import type { ResourcesRegistry } from '../resources/resources-registry.service.js';
import { shapeOf } from '../resources/schema/index.js';
import type { McpCustomTool, McpToolAnnotations, McpToolDescriptor } from './mcp-tools.types.js';
import { idArgumentOf, TOOL_NAME, toolNameOf } from './tool-naming.js';

/** How a resource operation's tool maps its arguments onto a dispatch. */
export interface ResourceToolBinding {
  operation: CompiledOperation;
  resource: CompiledResource;
  /** Argument naming the record (instance operations). */
  idArgument?: string;
  /** Whether the tool takes an `organizationId` (organization-scoped resources). */
  organizationArgument: boolean;
}

/** One tool of one catalogue. */
export interface McpToolEntry {
  descriptor: McpToolDescriptor;
  /** Listed in `tools/list`; experimental and retired tools are not (experimental ones stay callable). */
  listed: boolean;
  resource?: ResourceToolBinding;
  custom?: McpCustomTool;
}

const DEFAULT_CATALOGUE = '';
const PAGED = new Set<string>([CoreResourceOperation.LIST, CoreResourceOperation.SEARCH]);

/**
 * The tool catalogues of the default `/mcp` endpoint and of each named MCP instance, compiled once at start:
 * an operation with `mcp.exposed` and a default URL-bearing, implemented variant becomes `<resource>__<operation>`
 * with JSON Schemas derived from its contracts; `servers: [...]` moves it exclusively to those instances.
 * A tool that cannot be offered (malformed name, clashing arguments, unconvertible schema) is left out and logged.
 */
export class McpToolCatalogue {
  private readonly catalogues = new Map<string, Map<string, McpToolEntry>>();

  constructor(registry: ResourcesRegistry, application: BackendApplicationDefinition, private readonly logger: Logger) {
    this.catalogues.set(DEFAULT_CATALOGUE, new Map());
    for (const instance of application.resourceServerInstances ?? []) {
      if (instance.kind === ResourceServerKind.MCP) this.catalogues.set(instance.ref, new Map());
    }
    for (const operation of registry.listOperations()) {
      if (!this.eligible(operation)) continue;
      const entry = this.compile(registry.getResource(operation.resourceType), operation);
      if (entry) this.place(entry, operation.mcp?.servers);
    }
    for (const module of application.modules) {
      for (const tool of module.mcpTools ?? []) {
        if (!TOOL_NAME.test(tool.descriptor.name)) this.omit(tool.descriptor.name, 'the name does not match the tool-name grammar');
        else this.place({ descriptor: tool.descriptor, listed: true, custom: tool }, tool.servers);
      }
    }
  }

  /** The tools of an instance (`undefined` = the default catalogue), or undefined for an unknown instance. */
  catalogue(instance: string | undefined): ReadonlyMap<string, McpToolEntry> | undefined {
    return this.catalogues.get(instance ?? DEFAULT_CATALOGUE);
  }

  /** Every catalogue by instance (`''` = default), for exposure reports. */
  all(): ReadonlyMap<string, ReadonlyMap<string, McpToolEntry>> {
    return this.catalogues;
  }

  private eligible(operation: CompiledOperation): boolean {
    // Opt-in, default URL-bearing and implemented; retired operations stay so a call by name can be refused.
    return operation.mcp?.exposed === true && operation.isDefault && operation.http !== undefined && !operation.unimplemented;
  }

  private place(entry: McpToolEntry, servers: readonly string[] | undefined): void {
    for (const ref of servers && servers.length > 0 ? servers : [DEFAULT_CATALOGUE]) {
      const catalogue = this.catalogues.get(ref);
      if (!catalogue) continue;
      if (catalogue.has(entry.descriptor.name)) this.omit(entry.descriptor.name, `two tools share this name on "${ref || 'default'}"`);
      else catalogue.set(entry.descriptor.name, entry);
    }
  }

  private omit(name: string, why: string): void {
    this.logger.warn('MCP tool left out of the catalogue', { tool: name, why });
  }

  private compile(resource: CompiledResource, operation: CompiledOperation): McpToolEntry | undefined {
    const name = toolNameOf(operation.resourceType, operation.operation);
    if (!TOOL_NAME.test(name)) return void this.omit(name, 'the name does not match the tool-name grammar');
    const idArgument = operation.target === 'instance' ? idArgumentOf(resource.singular) : undefined;
    const organizationArgument = operation.scope === ResourcePrimaryScope.ORGANIZATIONS;
    const inputShape = this.argumentShape(operation);
    const addressing: Record<string, z.ZodType> = {};
    if (idArgument) addressing[idArgument] = z.string().min(1).max(64).describe(`Id of the ${resource.singular.replace(/-/g, ' ')}.`);
    if (organizationArgument) addressing.organizationId = z.string().min(1).max(64).optional().describe('Organization to act in; defaults to your only organization.');
    if (Object.keys(addressing).some((key) => key in inputShape)) return void this.omit(name, 'a declared field clashes with an addressing argument');
    let descriptor: McpToolDescriptor;
    try {
      descriptor = {
        name,
        title: `${resource.declaration.displayName}: ${operation.operation}`,
        description: this.description(resource, operation),
        inputSchema: z.toJSONSchema(z.strictObject({ ...addressing, ...inputShape }), { io: 'input', unrepresentable: 'throw' }) as Record<string, unknown>,
        ...this.outputSchema(operation),
        annotations: this.annotations(operation),
      };
    } catch (error) {
      return void this.omit(name, `its contract has no JSON Schema form (${String(error)})`);
    }
    return { descriptor, listed: operation.lifecycle !== 'experimental' && operation.lifecycle !== 'retired', resource: { operation, resource, ...(idArgument ? { idArgument } : {}), organizationArgument } };
  }

  /** The fields a model sends besides the addressing arguments. */
  private argumentShape(operation: CompiledOperation): Record<string, z.ZodType> {
    if (operation.core === CoreResourceOperation.LIST) {
      const shape: Record<string, z.ZodType> = {};
      for (const filter of operation.filters.values()) shape[filter.name] = (filter.nullable ? filter.schema.nullable() : filter.schema).optional();
      shape.limit = z.number().int().min(1).max(operation.pageSize.max).optional().describe('Page size.');
      shape.cursor = z.string().max(512).optional().describe('nextCursor of the previous page.');
      return shape;
    }
    const input = operation.inputSchema;
    return input instanceof z.ZodObject ? shapeOf(input) : {};
  }

  private outputSchema(operation: CompiledOperation): { outputSchema?: Record<string, unknown> } {
    const response = PAGED.has(operation.operation)
      ? z.object({ data: z.array(operation.responseSchema), nextCursor: z.string().nullable() })
      : operation.responseSchema;
    const schema = z.toJSONSchema(response, { io: 'output', unrepresentable: 'throw' }) as Record<string, unknown>;
    // MCP output schemas describe an object; other results are still returned, without a schema.
    return schema.type === 'object' ? { outputSchema: schema } : {};
  }

  private description(resource: CompiledResource, operation: CompiledOperation): string {
    const base = operation.mcp?.description ?? operation.description ?? `${operation.operation} ${resource.declaration.displayName.toLowerCase()}.`;
    return operation.lifecycle === 'deprecated' ? `${base} (Deprecated: this tool is being phased out; prefer its replacement.)` : base;
  }

  private annotations(operation: CompiledOperation): McpToolAnnotations {
    const read = operation.effect === ResourceOperationEffect.READ;
    const risky = operation.riskLevel === ResourceOperationRiskLevel.HIGH || operation.riskLevel === ResourceOperationRiskLevel.CRITICAL;
    return {
      readOnlyHint: read,
      destructiveHint: operation.effect === ResourceOperationEffect.DESTRUCTIVE || (!read && risky),
      idempotentHint: read || operation.core === CoreResourceOperation.UPDATE || operation.core === CoreResourceOperation.DELETE,
      openWorldHint: false,
    };
  }
}
