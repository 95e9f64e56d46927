import {
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  CoreResourceOperation,
  ResourceDeclarationSchema,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  type AnyResourceDeclaration,
  type ResourceOperationVariant,
} from '@wildo/shared-lib';
import { auditGovernedOutputs, auditPolicies, compileProjector } from '../governance/index.js';
import type { CompiledFilter, CompiledOperation, CompiledResource } from './compiled-resource.types.js';
import { buildOperationContracts } from './operation-contracts.js';
import {
  collectionPath,
  coreBinding,
  customBinding,
  defaultSingular,
  servicePathOf,
  toKebab,
} from './resource-naming.js';
import type { DeclarationProblem } from './resources.errors.js';
import {
  auditSchema,
  formatPath,
  isNullableField,
  ragSourceTextFields,
  scalarKindOf,
  shapeOf,
  toStrictInput,
  unwrapTransparent,
} from './schema/index.js';

const CORE_OPERATIONS = new Set<string>(Object.values(CoreResourceOperation));
const SYSTEM_FIELDS = ['_id', 'organizationId', 'userId', 'createdByUserId', 'createdAt', 'updatedAt', 'version'];
const DEFAULT_PAGE_SIZE = { default: 20, max: 100 };

/** Roles that can ever match on a resource of this scope (org operations see org roles, the others app roles). */
function rolesForScope(scope: ResourcePrimaryScope): readonly string[] {
  return scope === ResourcePrimaryScope.ORGANIZATIONS ? Object.values(CORE_ORG_ROLES) : Object.values(CORE_APP_ROLES);
}

/** Compiles one declaration. Returns every problem found; `resource` only when there are none. */
export function compileResource(
  declaration: AnyResourceDeclaration,
  moduleName: string,
): {
  resource?: CompiledResource;
  problems: DeclarationProblem[];
} {
  const type: unknown = (declaration as { type?: unknown }).type;
  const label = `resource "${typeof type === 'string' ? type : '?'}"`;
  const problems: DeclarationProblem[] = [];
  const report = (path: string, message: string) => problems.push({ declaration: label, path, message });

  const structural = ResourceDeclarationSchema.safeParse(declaration);
  if (!structural.success) {
    for (const issue of structural.error.issues) {
      report(formatPath(issue.path.map((s) => (typeof s === 'number' ? s : String(s)))), issue.message);
    }
    return { problems };
  }
  for (const p of auditSchema(declaration.schema)) report(`schema.${p.path}`, p.message);
  for (const p of auditGovernedOutputs(declaration.schema)) report(`schema.${p.path}`, p.message);
  for (const [key, custom] of Object.entries(declaration.customOperations ?? {})) {
    for (const p of auditGovernedOutputs(custom.responseSchema))
      report(`customOperations.${key}.responseSchema.${p.path}`, p.message);
  }
  const shape = shapeOf(declaration.schema);
  for (const field of SYSTEM_FIELDS)
    if (field in shape)
      report(`schema.${field}`, `"${field}" is a system field the engine writes; rename the declared field`);
  const readOnlyFields = declaration.readOnlyFields ?? [];
  const internalFields = declaration.internalFields ?? [];
  readOnlyFields.forEach((f, i) => {
    if (!(f in shape)) report(`readOnlyFields[${i}]`, `"${f}" is not a field of the schema`);
  });
  internalFields.forEach((f, i) => {
    if (!(f in shape)) report(`internalFields[${i}]`, `"${f}" is not a field of the schema`);
  });
  const searchFields = declaration.searchFields ?? ragSourceTextFields(declaration.schema);
  searchFields.forEach((f, i) => {
    const field = shape[f];
    if (!field || scalarKindOf(field) !== 'string')
      report(`searchFields[${i}]`, `"${f}" must be a text field of the schema`);
  });

  const base = collectionPath(declaration.primaryScope, declaration.urlSegment ?? toKebab(declaration.type));
  const resourceShell = {
    type: declaration.type,
    scope: declaration.primaryScope,
    schema: declaration.schema,
    readOnlyFields,
    internalFields,
    responseExtensions: declaration.responseExtensions ?? {},
  };
  const contracts = buildOperationContracts(resourceShell);
  const operations = new Map<string, CompiledOperation>();
  for (const [key, configuration] of Object.entries(declaration.operationsConfiguration)) {
    if (!configuration) continue;
    compileOperationVariants(declaration, key, configuration.variants, base, contracts, operations, report);
  }
  for (const key of Object.keys(declaration.customOperations ?? {})) {
    if (CORE_OPERATIONS.has(key))
      report(`customOperations.${key}`, `"${key}" is a core operation name; choose another name`);
    else if (!declaration.operationsConfiguration[key])
      report(`customOperations.${key}`, `declare its variants under operationsConfiguration.${key}`);
  }
  if (problems.length > 0) return { problems };

  const recordSchema = contracts.recordSchema;
  return {
    problems,
    resource: {
      declaration,
      type: declaration.type,
      module: moduleName,
      scope: declaration.primaryScope,
      urlSegment: declaration.urlSegment ?? toKebab(declaration.type),
      singular: declaration.singular ?? defaultSingular(declaration.type),
      readOnlyFields,
      internalFields,
      storeDefinition: {
        resourceType: declaration.type,
        scope:
          declaration.primaryScope === ResourcePrimaryScope.ORGANIZATIONS
            ? 'organization'
            : declaration.primaryScope === ResourcePrimaryScope.USER
              ? 'user'
              : 'application',
        filterFields: collectFilterFields(operations),
        searchFields,
      },
      recordSchema,
      recordProjector: compileProjector(recordSchema, { internalKeys: internalFields }),
      schema: declaration.schema,
      storageSchema: toStrictInput(declaration.schema),
      createInputSchema: contracts.createInputSchema,
      patchInputSchema: contracts.patchInputSchema,
      operations,
    },
  };
}

type Report = (path: string, message: string) => void;

function compileOperationVariants(
  declaration: AnyResourceDeclaration,
  key: string,
  variants: readonly ResourceOperationVariant[],
  base: string,
  contracts: ReturnType<typeof buildOperationContracts>,
  operations: Map<string, CompiledOperation>,
  report: Report,
): void {
  const path = `operationsConfiguration.${key}`;
  const isCore = CORE_OPERATIONS.has(key);
  const custom = declaration.customOperations?.[key];
  if (!isCore && !custom) {
    report(path, `"${key}" is neither a core operation nor declared in customOperations`);
    return;
  }
  const defaults = variants.filter(
    (v, _i, all) => v.isDefault === true || (all.length === 1 && v.isDefault === undefined),
  );
  if (defaults.length !== 1) report(`${path}.variants`, 'exactly one variant must have isDefault: true');
  const allowedRoles = rolesForScope(declaration.primaryScope);
  const seenKeys = new Set<string>();
  variants.forEach((variant, i) => {
    const vPath = `${path}.variants[${i}]`;
    const isDefault = defaults[0] === variant;
    if (!isDefault && !variant.key) report(`${vPath}.key`, 'a non-default variant needs a key');
    const variantKey = isDefault ? 'default' : (variant.key ?? `variant${i}`);
    if (seenKeys.has(variantKey)) report(`${vPath}.key`, `duplicate variant key "${variantKey}"`);
    seenKeys.add(variantKey);
    variant.roles.forEach((role, r) => {
      if (!allowedRoles.includes(role)) {
        report(
          `${vPath}.roles[${r}]`,
          `${role} can never match on a ${declaration.primaryScope} resource; use one of ${allowedRoles.join(', ')}`,
        );
      }
    });
    for (const p of auditPolicies(variant.policies, allowedRoles)) report(`${vPath}.${p.path}`, p.message);
    if (variant.requiresReauthentication && variant.mcp?.exposed) {
      report(
        `${vPath}.mcp`,
        'a tool call cannot carry a step-up proof, so an operation that requires re-authentication cannot be an MCP tool; remove mcp.exposed',
      );
    }
    const filters = compileFilters(declaration, key, variant, vPath, report);
    if (variant.pageSize && key !== CoreResourceOperation.LIST && key !== CoreResourceOperation.SEARCH) {
      report(`${vPath}.pageSize`, 'pageSize applies to list and search only');
    }
    const binding = isCore ? coreBinding(key as CoreResourceOperation, base) : null;
    const target = binding?.target ?? custom?.target ?? 'collection';
    const unimplemented = variant.unimplemented === true;
    const routed = isDefault && variant.variantType === ResourceOperationVariantType.API_CALL && !unimplemented;
    const contract =
      !isCore && custom ? contracts.custom(custom) : contracts.core(key as CoreResourceOperation, filters, variant);
    operations.set(servicePathOf(declaration.type, key, isDefault ? undefined : variantKey), {
      resourceType: declaration.type,
      operation: key,
      kind: isCore ? 'core' : 'custom',
      ...(isCore ? { core: key as CoreResourceOperation } : {}),
      variantKey,
      isDefault,
      servicePath: servicePathOf(declaration.type, key, isDefault ? undefined : variantKey),
      target,
      // The declaration may name the effect by its value ('irreversible'); the string enum's values are those names.
      effect: !isCore && custom ? (custom.effect as ResourceOperationEffect) : coreEffect(key as CoreResourceOperation),
      scope: declaration.primaryScope,
      ...(routed ? { http: binding?.http ?? customBinding(target, base, key, custom?.httpMethods) } : {}),
      roles: variant.roles,
      ...(variant.riskLevel ? { riskLevel: variant.riskLevel } : {}),
      ...(variant.rateLimit ? { rateLimit: variant.rateLimit } : {}),
      lifecycle: variant.lifecycle ?? 'stable',
      ...(variant.mcp ? { mcp: variant.mcp } : {}),
      ...((variant.description ?? custom?.description)
        ? { description: variant.description ?? custom?.description }
        : {}),
      ...(variant.ownerOnly ? { ownerOnly: variant.ownerOnly } : {}),
      ...(variant.policies ? { policies: variant.policies } : {}),
      ...(custom?.failures && !isCore ? { failures: custom.failures } : {}),
      requiresReauthentication: variant.requiresReauthentication === true,
      ...(variant.approval?.required
        ? { approval: { lifetimeMs: (variant.approval.lifetimeSeconds ?? DEFAULT_APPROVAL_SECONDS) * 1000 } }
        : {}),
      unimplemented,
      ...(contract.inputSchema ? { inputSchema: contract.inputSchema } : {}),
      ...(contract.readOnlyFields ? { readOnlyFields: contract.readOnlyFields } : {}),
      filters,
      pageSize: variant.pageSize ?? DEFAULT_PAGE_SIZE,
      responseSchema: contract.responseSchema,
      // The resource's internal fields are stored, never returned: dropped, but no news to report on every answer.
      projector: compileProjector(contract.responseSchema, { internalKeys: declaration.internalFields ?? [] }),
      variant,
    });
  });
}

/** How long an approval stays usable when the declaration does not say. */
const DEFAULT_APPROVAL_SECONDS = 15 * 60;

function compileFilters(
  declaration: AnyResourceDeclaration,
  key: string,
  variant: ResourceOperationVariant,
  vPath: string,
  report: Report,
): Map<string, CompiledFilter> {
  const filters = new Map<string, CompiledFilter>();
  if (!variant.filters) return filters;
  if (key !== CoreResourceOperation.LIST && key !== CoreResourceOperation.SEARCH) {
    report(`${vPath}.filters`, 'filters apply to list and search only');
    return filters;
  }
  const shape = shapeOf(declaration.schema);
  variant.filters.forEach((name, i) => {
    const field = shape[name];
    const kind = field ? scalarKindOf(field) : null;
    if (!field || !kind || name === 'limit' || name === 'cursor') {
      report(
        `${vPath}.filters[${i}]`,
        `"${name}" must be a text, number or boolean field of the schema (not limit or cursor)`,
      );
      return;
    }
    filters.set(name, { name, kind, schema: unwrapTransparent(field), nullable: isNullableField(field) });
  });
  return filters;
}

function coreEffect(operation: CoreResourceOperation): ResourceOperationEffect {
  switch (operation) {
    case CoreResourceOperation.DELETE:
      return ResourceOperationEffect.DESTRUCTIVE;
    case CoreResourceOperation.CREATE:
    case CoreResourceOperation.UPDATE:
      return ResourceOperationEffect.WRITE;
    default:
      return ResourceOperationEffect.READ;
  }
}

function collectFilterFields(operations: ReadonlyMap<string, CompiledOperation>) {
  const byName = new Map<string, { name: string; kind: CompiledFilter['kind'] }>();
  for (const op of operations.values())
    for (const f of op.filters.values()) byName.set(f.name, { name: f.name, kind: f.kind });
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
