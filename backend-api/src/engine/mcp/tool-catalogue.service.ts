import { organizationIdArgument } from './call-organization.js';
import {
  CoreResourceOperation,
  ResourceOperationEffect,
  ResourceOperationRiskLevel,
  ResourcePrimaryScope,
  ResourceServerKind,
} from '@wildo/shared-lib';
import { z } from 'zod';
import type { McpApplication } from './mcp-module.js';
import type { Logger } from '../logging/index.js';
import type { CompiledOperation, CompiledResource, ResourcesRegistry } from '../resources/index.js';
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

/** Tools derived from one resource operation's tool (e.g. its upload grants), and a note for its description. */
export interface DerivedMcpTools {
  tools: readonly McpCustomTool[];
  /** Appended to the parent tool's description (how the derived tools and the parent work together). */
  descriptionNote?: string;
}

/** Derives further tools from a resource operation's tool (the files capability's upload grants). */
export interface DerivedMcpToolSource {
  toolsFor(resource: CompiledResource, operation: CompiledOperation): DerivedMcpTools | undefined;
}

/** One tool of one catalogue. */
export interface McpToolEntry {
  descriptor: McpToolDescriptor;
  /** Listed in `tools/list`; experimental and retired tools are not (experimental ones stay callable). */
  listed: boolean;
  resource?: ResourceToolBinding;
  custom?: McpCustomTool;
}

/**
 * Why a resource operation variant or a module's tool is not on a catalogue. The first four are eligibility
 * (decided before a tool is built, not logged: most operations are simply not offered); `unknown-instance`
 * is not logged either (application validation already refuses it for operations); the others are tools
 * that could not be offered and are logged as a warning.
 */
export type McpOmissionReason =
  | 'not-opted-in'
  | 'not-default-variant'
  | 'unimplemented'
  | 'not-url-bearing'
  | 'malformed-name'
  | 'argument-clash'
  | 'schema-not-representable'
  | 'duplicate-name'
  | 'unknown-instance';

/** One thing the catalogue left out, and why; recorded for exposure reports (`wildo exposure`). */
export interface McpOmission {
  reason: McpOmissionReason;
  /** A sentence for people (the log line's `why` for logged omissions). */
  detail: string;
  /** The tool name it has or would have had. */
  tool: string;
  /** The operation variant left out; absent for a tool a module contributes directly. */
  servicePath?: string;
  /** The catalogue concerned (`''` = default) for a name clash or an unknown instance; such a tool may be on others. */
  instance?: string;
}

const DEFAULT_CATALOGUE = '';
const PAGED = new Set<string>([CoreResourceOperation.LIST, CoreResourceOperation.SEARCH]);

/**
 * The tool catalogues of the default `/mcp` endpoint and of each named MCP instance, compiled once at start:
 * an operation with `mcp.exposed` and a default URL-bearing, implemented variant becomes `<resource>__<operation>`
 * with JSON Schemas derived from its contracts; `servers: [...]` moves it exclusively to those instances.
 * A tool that cannot be offered (malformed name, clashing arguments, unconvertible schema) is left out and logged.
 * Every omission, logged or not, is recorded with its reason ({@link McpToolCatalogue.omissions}) so exposure
 * reports explain the catalogue from the decisions it made rather than from a second copy of the rules.
 */
export class McpToolCatalogue {
  private readonly catalogues = new Map<string, Map<string, McpToolEntry>>();
  private readonly omitted: McpOmission[] = [];

  constructor(
    registry: ResourcesRegistry,
    application: McpApplication,
    private readonly logger: Logger,
    derivedSource?: DerivedMcpToolSource,
  ) {
    this.catalogues.set(DEFAULT_CATALOGUE, new Map());
    for (const instance of application.resourceServerInstances ?? []) {
      if (instance.kind === ResourceServerKind.MCP) this.catalogues.set(instance.ref, new Map());
    }
    for (const operation of registry.listOperations()) {
      const ineligible = this.ineligibility(operation);
      if (ineligible) {
        this.omitted.push({
          ...ineligible,
          tool: toolNameOf(operation.resourceType, operation.operation),
          servicePath: operation.servicePath,
        });
        continue;
      }
      const resource = registry.getResource(operation.resourceType);
      const derived = derivedSource?.toolsFor(resource, operation);
      const entry = this.compile(resource, operation, derived?.descriptionNote);
      if (!entry) continue;
      this.place(entry, operation.mcp?.servers);
      // Derived tools live and die with their parent: same servers, same listing.
      for (const tool of derived?.tools ?? [])
        this.place({ descriptor: tool.descriptor, listed: entry.listed, custom: tool }, operation.mcp?.servers);
    }
    for (const module of application.modules) {
      for (const tool of module.mcpTools ?? []) {
        if (!TOOL_NAME.test(tool.descriptor.name))
          this.omit({
            reason: 'malformed-name',
            detail: 'the name does not match the tool-name grammar',
            tool: tool.descriptor.name,
          });
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

  /** Everything left out of a catalogue and why, in the order it was decided, for exposure reports. */
  omissions(): readonly McpOmission[] {
    return this.omitted;
  }

  /**
   * Why an operation variant cannot become a tool, or undefined when it can: opt-in, default, implemented and
   * URL-bearing (`http` is set only for those). Retired operations stay so a call by name can be refused.
   */
  private ineligibility(operation: CompiledOperation): Pick<McpOmission, 'reason' | 'detail'> | undefined {
    if (operation.mcp?.exposed !== true) return { reason: 'not-opted-in', detail: 'mcp.exposed is not set' };
    if (!operation.isDefault)
      return { reason: 'not-default-variant', detail: 'only the default variant of an operation becomes a tool' };
    if (operation.unimplemented) return { reason: 'unimplemented', detail: 'declared unimplemented' };
    if (operation.http === undefined)
      return {
        reason: 'not-url-bearing',
        detail: 'an internal variant has no URL; it is reached from server code only',
      };
    return undefined;
  }

  private place(entry: McpToolEntry, servers: readonly string[] | undefined): void {
    for (const ref of servers && servers.length > 0 ? servers : [DEFAULT_CATALOGUE]) {
      const catalogue = this.catalogues.get(ref);
      const about = {
        tool: entry.descriptor.name,
        ...(entry.resource ? { servicePath: entry.resource.operation.servicePath } : {}),
        instance: ref,
      };
      // Not logged (as before): for resource operations, application validation already refuses an unknown instance.
      if (!catalogue)
        this.omitted.push({ reason: 'unknown-instance', detail: `no MCP resource server instance "${ref}"`, ...about });
      else if (catalogue.has(entry.descriptor.name))
        this.omit({ reason: 'duplicate-name', detail: `two tools share this name on "${ref || 'default'}"`, ...about });
      else catalogue.set(entry.descriptor.name, entry);
    }
  }

  /** Records an omission and logs it (same warning as ever: the tool name and why). */
  private omit(omission: McpOmission): void {
    this.omitted.push(omission);
    this.logger.warn('MCP tool left out of the catalogue', { tool: omission.tool, why: omission.detail });
  }

  private compile(
    resource: CompiledResource,
    operation: CompiledOperation,
    descriptionNote?: string,
  ): McpToolEntry | undefined {
    const name = toolNameOf(operation.resourceType, operation.operation);
    const about = { tool: name, servicePath: operation.servicePath };
    if (!TOOL_NAME.test(name)) {
      this.omit({ reason: 'malformed-name', detail: 'the name does not match the tool-name grammar', ...about });
      return undefined;
    }
    const idArgument = operation.target === 'instance' ? idArgumentOf(resource.singular) : undefined;
    const organizationArgument = operation.scope === ResourcePrimaryScope.ORGANIZATIONS;
    const inputShape = this.argumentShape(operation);
    const addressing: Record<string, z.ZodType> = {};
    if (idArgument)
      addressing[idArgument] = z
        .string()
        .min(1)
        .max(64)
        .describe(`Id of the ${resource.singular.replace(/-/g, ' ')}.`);
    if (organizationArgument) addressing.organizationId = organizationIdArgument();
    if (Object.keys(addressing).some((key) => key in inputShape)) {
      this.omit({ reason: 'argument-clash', detail: 'a declared field clashes with an addressing argument', ...about });
      return undefined;
    }
    let descriptor: McpToolDescriptor;
    try {
      descriptor = {
        name,
        title: `${resource.declaration.displayName}: ${operation.operation}`,
        description: descriptionNote
          ? `${this.description(resource, operation)} ${descriptionNote}`
          : this.description(resource, operation),
        inputSchema: z.toJSONSchema(z.strictObject({ ...addressing, ...inputShape }), {
          io: 'input',
          unrepresentable: 'throw',
        }) as Record<string, unknown>,
        ...this.outputSchema(operation),
        annotations: this.annotations(operation),
      };
    } catch (error) {
      {
        this.omit({
          reason: 'schema-not-representable',
          detail: `its contract has no JSON Schema form (${String(error)})`,
          ...about,
        });
        return undefined;
      }
    }
    return {
      descriptor,
      listed: operation.lifecycle !== 'experimental' && operation.lifecycle !== 'retired',
      resource: { operation, resource, ...(idArgument ? { idArgument } : {}), organizationArgument },
    };
  }

  /** The fields a model sends besides the addressing arguments. */
  private argumentShape(operation: CompiledOperation): Record<string, z.ZodType> {
    if (operation.core === CoreResourceOperation.LIST) {
      const shape: Record<string, z.ZodType> = {};
      for (const filter of operation.filters.values())
        shape[filter.name] = (filter.nullable ? filter.schema.nullable() : filter.schema).optional();
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
    const base =
      operation.mcp?.description ??
      operation.description ??
      `${operation.operation} ${resource.declaration.displayName.toLowerCase()}.`;
    return operation.lifecycle === 'deprecated'
      ? `${base} (Deprecated: this tool is being phased out; prefer its replacement.)`
      : base;
  }

  private annotations(operation: CompiledOperation): McpToolAnnotations {
    const read = operation.effect === ResourceOperationEffect.READ;
    const irreversible = operation.effect === ResourceOperationEffect.IRREVERSIBLE;
    const risky =
      operation.riskLevel === ResourceOperationRiskLevel.HIGH ||
      operation.riskLevel === ResourceOperationRiskLevel.CRITICAL;
    return {
      readOnlyHint: read,
      destructiveHint: operation.effect === ResourceOperationEffect.DESTRUCTIVE || irreversible || (!read && risky),
      idempotentHint:
        !irreversible &&
        (read || operation.core === CoreResourceOperation.UPDATE || operation.core === CoreResourceOperation.DELETE),
      openWorldHint: false,
    };
  }
}
