import {
  CoreResourceOperation,
  ResourcePrimaryScope,
  type ResourceDescription,
  type ResourceFilterDescription,
  type ResourceOperationDescription,
} from '@wildo/shared-lib';
import { z } from 'zod';
import type { AuthenticatedPrincipal, RoleHierarchyResolver } from '../identity/index.js';
import { API_PREFIX } from '../urls/index.js';
import type { CompiledOperation, CompiledResource } from './compiled-resource.types.js';
import { admissionRefusal, type DispatchStepDependencies } from './dispatch-steps.js';
import type { ExecutionContextCreator } from './execution-context-creator.service.js';
import { confinedToOwnRecords } from './operation-admission.service.js';
import type { ResourcesRegistry } from './resources-registry.service.js';

/** What a page calls each core operation. */
const CORE_DISPLAY_NAMES: Record<CoreResourceOperation, string> = {
  [CoreResourceOperation.CREATE]: 'Create',
  [CoreResourceOperation.READ]: 'Open',
  [CoreResourceOperation.UPDATE]: 'Edit',
  [CoreResourceOperation.DELETE]: 'Delete',
  [CoreResourceOperation.LIST]: 'List',
  [CoreResourceOperation.SEARCH]: 'Search',
};

/** `mark_done` / `markDone` / `mark-done` → "Mark done". */
function inWords(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? `${words[0]?.toUpperCase()}${words.slice(1)}` : key;
}

/** A Zod schema as JSON Schema; what JSON Schema cannot say (a transform, a custom check) is left open. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    // A schema the converter cannot walk (a cycle it cannot name): described as "anything", checked by the server.
    return {};
  }
}

/** The title a field's schema declares (`.meta({ title })`), else its name in words. */
function fieldDisplayName(name: string, schema: z.ZodType): string {
  const title = z.globalRegistry.get(schema)?.title;
  return typeof title === 'string' && title.length > 0 ? title : inWords(name);
}

/** The part of an operation's description that does not depend on the caller. */
type StaticOperation = Omit<ResourceOperationDescription, 'path' | 'allowed' | 'refusal' | 'onlyOwnRecords'> & {
  compiled: CompiledOperation;
  /** The path below the API with `:organizationId` still in it. */
  pathTemplate: string;
};

/** The part of a resource's description that does not depend on the caller, computed once. */
interface StaticResource {
  resource: CompiledResource;
  description: Omit<ResourceDescription, 'path' | 'operations'>;
  pathTemplate: string;
  operations: StaticOperation[];
}

/** Options of {@link ResourceDescriptions}. */
export interface ResourceDescriptionsOptions {
  /** Modules the engine itself declares: their resources are described as built in. */
  builtInModules?: ReadonlySet<string>;
}

/** The collaborators that judge a caller: the dispatch path's own context builder and admission checks. */
export interface ResourceDescriptionJudges {
  contexts: Pick<ExecutionContextCreator, 'buildContext'>;
  admission: DispatchStepDependencies['admission'];
  roles: Pick<RoleHierarchyResolver, 'satisfies'>;
}

/**
 * The organization-scoped resources of an application as pages render them: names, fields and filters as JSON
 * Schema, the order, and each routed operation with whether the caller may run it. Whether they may is what the
 * dispatch path's own `context`, `lifecycle`, `authorize` and `policy` checks answer (see `admissionRefusal`), so a
 * page never offers what the server would refuse for the caller's role.
 */
export class ResourceDescriptions {
  private described: StaticResource[] | undefined;

  constructor(
    private readonly registry: Pick<ResourcesRegistry, 'listResources'>,
    private readonly options: ResourceDescriptionsOptions = {},
  ) {}

  /**
   * Describes the organization's resources for `principal`. A principal outside the organization is refused
   * exactly as the dispatch path refuses them (not found), before anything is described.
   */
  async forOrganization(
    judges: ResourceDescriptionJudges,
    principal: AuthenticatedPrincipal,
    organizationId: string,
    meta: { requestId: string },
  ): Promise<ResourceDescription[]> {
    const context = await judges.contexts.buildContext(
      principal,
      { scope: ResourcePrimaryScope.ORGANIZATIONS },
      { organizationId },
      { surface: 'rest', requestId: meta.requestId },
    );
    const organizationPath = encodeURIComponent(organizationId);
    return this.describedResources().map((entry) => ({
      ...entry.description,
      path: `${API_PREFIX}${entry.pathTemplate.replace(':organizationId', organizationPath)}`,
      operations: entry.operations.map(({ compiled, pathTemplate, ...rest }) => {
        const refusal = admissionRefusal(judges.admission, compiled, principal, context);
        return {
          ...rest,
          path: `${API_PREFIX}${pathTemplate.replace(':organizationId', organizationPath)}`,
          allowed: refusal === undefined,
          ...(refusal ? { refusal: refusal.reason ?? refusal.code.toLowerCase() } : {}),
          onlyOwnRecords: confinedToOwnRecords(judges.roles, compiled, context),
        };
      }),
    }));
  }

  /** The caller-independent part, built on first use (JSON Schema generation is not free) and kept. */
  private describedResources(): StaticResource[] {
    this.described ??= this.registry
      .listResources()
      .filter((resource) => resource.scope === ResourcePrimaryScope.ORGANIZATIONS)
      .map((resource) => this.describeResource(resource))
      .filter((entry): entry is StaticResource => entry !== undefined);
    return this.described;
  }

  private describeResource(resource: CompiledResource): StaticResource | undefined {
    const routed = [...resource.operations.values()].filter(
      (operation) => operation.http !== undefined && operation.lifecycle !== 'retired',
    );
    const list = routed.find((operation) => operation.core === CoreResourceOperation.LIST);
    const anchor = routed.find((operation) => operation.target === 'collection') ?? routed[0];
    if (!anchor?.http) return undefined;
    const declaration = resource.declaration;
    const filters: ResourceFilterDescription[] = [...(list?.filters.values() ?? [])].map((filter) => ({
      name: filter.name,
      displayName: fieldDisplayName(filter.name, filter.schema),
      schema: jsonSchemaOf(filter.schema, 'input'),
      nullable: filter.nullable,
    }));
    return {
      resource,
      pathTemplate: collectionPathOf(anchor),
      description: {
        type: resource.type,
        displayName: declaration.displayName,
        singular: resource.singular.replace(/[-_]+/g, ' '),
        module: resource.module,
        builtIn: this.options.builtInModules?.has(resource.module) ?? false,
        recordSchema: jsonSchemaOf(resource.recordSchema, 'output'),
        readOnlyFields: Object.keys(resource.recordSchema.shape).filter(
          (key) => !(key in resource.createInputSchema.shape),
        ),
        filters,
        sort: { order: 'newest_first' },
        pageSize: list?.pageSize ?? { default: 20, max: 100 },
      },
      operations: routed.map((operation) => describeOperation(resource, operation)),
    };
  }
}

/** The collection path of an operation: its own for LIST and CREATE, else its path less the last segment or `/:id...`. */
function collectionPathOf(operation: CompiledOperation): string {
  const path = operation.http?.path ?? '';
  if (operation.target === 'instance') return path.slice(0, path.lastIndexOf('/:id'));
  if (operation.core === CoreResourceOperation.LIST || operation.core === CoreResourceOperation.CREATE) return path;
  return path.slice(0, path.lastIndexOf('/'));
}

function describeOperation(resource: CompiledResource, operation: CompiledOperation): StaticOperation {
  const custom = operation.kind === 'custom' ? resource.declaration.customOperations?.[operation.operation] : undefined;
  const http = operation.http as NonNullable<CompiledOperation['http']>;
  return {
    compiled: operation,
    pathTemplate: http.path,
    operation: operation.operation,
    kind: operation.kind,
    displayName: operation.core
      ? CORE_DISPLAY_NAMES[operation.core]
      : (custom?.displayName ?? inWords(operation.operation)),
    ...(operation.description ? { description: operation.description } : {}),
    target: operation.target,
    effect: operation.effect,
    method: http.method,
    ...(operation.inputSchema ? { inputSchema: jsonSchemaOf(operation.inputSchema, 'input') } : {}),
    requiresReauthentication: operation.requiresReauthentication,
    lifecycle: operation.lifecycle,
  };
}
