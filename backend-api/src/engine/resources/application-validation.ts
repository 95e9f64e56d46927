import { CoreResourceOperation, ResourcePrimaryScope, ResourceServerKind } from '@wildo/shared-lib';
import type { ResourcesApplication } from './resources-module.js';
import type { CompiledResource } from './compiled-resource.types.js';
import { RESERVED_ORG_SEGMENTS, RESERVED_TOP_SEGMENTS } from './resource-naming.js';
import type { DeclarationProblem } from './resources.errors.js';
import { scalarKindOf, shapeOf } from './schema/index.js';

const CORE_OPERATIONS = new Set<string>(Object.values(CoreResourceOperation));

/**
 * Checks what no single declaration can check alone: names, references, service code, server instances.
 * `refusedTypes` are resources whose declaration was already refused: what names them adds no line of its own.
 */
export function validateApplication(
  application: ResourcesApplication,
  resources: ReadonlyMap<string, CompiledResource>,
  refusedTypes: ReadonlySet<string> = new Set(),
): DeclarationProblem[] {
  const problems: DeclarationProblem[] = [];
  const moduleNames = new Set<string>();
  for (const module of application.modules) {
    if (moduleNames.has(module.name))
      problems.push({
        declaration: `module "${module.name}"`,
        path: 'name',
        message: 'two modules share this name; rename one',
      });
    moduleNames.add(module.name);
  }
  problems.push(
    ...validateSegments(resources),
    ...validateRelationships(resources, refusedTypes),
    ...validateServiceCode(application, resources, refusedTypes),
  );
  problems.push(...validateServerInstances(application, resources));
  return problems;
}

function validateSegments(resources: ReadonlyMap<string, CompiledResource>): DeclarationProblem[] {
  const problems: DeclarationProblem[] = [];
  const seen = new Map<string, string>();
  for (const resource of resources.values()) {
    const label = `resource "${resource.type}"`;
    const org = resource.scope === ResourcePrimaryScope.ORGANIZATIONS;
    const reserved = org ? RESERVED_ORG_SEGMENTS : RESERVED_TOP_SEGMENTS;
    if (reserved.has(resource.urlSegment)) {
      problems.push({
        declaration: label,
        path: 'urlSegment',
        message: `"${resource.urlSegment}" is served by the engine; set another urlSegment`,
      });
    }
    const key = `${org ? 'org' : 'top'}:${resource.urlSegment}`;
    const other = seen.get(key);
    if (other)
      problems.push({
        declaration: label,
        path: 'urlSegment',
        message: `resource "${other}" already uses "${resource.urlSegment}"; set another urlSegment`,
      });
    seen.set(key, resource.type);
  }
  return problems;
}

function validateRelationships(
  resources: ReadonlyMap<string, CompiledResource>,
  refusedTypes: ReadonlySet<string>,
): DeclarationProblem[] {
  const problems: DeclarationProblem[] = [];
  for (const resource of resources.values()) {
    const shape = shapeOf(resource.schema);
    resource.declaration.relationships?.forEach((rel, i) => {
      const report = (message: string) =>
        problems.push({ declaration: `resource "${resource.type}"`, path: `relationships[${i}]`, message });
      const field = shape[rel.field];
      if (!field || scalarKindOf(field) !== 'string')
        report(`"${rel.field}" must be a text field of the schema holding the related id`);
      const target = resources.get(rel.resourceType);
      if (!target && refusedTypes.has(rel.resourceType)) return;
      if (!target) report(`no resource "${rel.resourceType}" is registered; register its module or fix the type`);
      else if (target.scope !== resource.scope && target.scope !== ResourcePrimaryScope.APPLICATION) {
        report(
          `"${rel.resourceType}" is ${target.scope}-scoped and cannot be referenced from a ${resource.scope}-scoped resource`,
        );
      }
    });
  }
  return problems;
}

function validateServiceCode(
  application: ResourcesApplication,
  resources: ReadonlyMap<string, CompiledResource>,
  refusedTypes: ReadonlySet<string>,
): DeclarationProblem[] {
  const problems: DeclarationProblem[] = [];
  const implemented = new Map<string, Set<string>>();
  for (const module of application.modules) {
    module.customServiceImplementations?.forEach((impl, i) => {
      const label = `module "${module.name}"`;
      const path = `customServiceImplementations[${i}]`;
      const resource = resources.get(impl.resourceType);
      if (!resource) {
        if (!refusedTypes.has(impl.resourceType)) {
          problems.push({
            declaration: label,
            path,
            message: `no resource "${impl.resourceType}" is registered; add the module that declares it to the application, or fix the type`,
          });
        }
        return;
      }
      if (implemented.has(impl.resourceType)) {
        problems.push({
          declaration: label,
          path,
          message: `"${impl.resourceType}" already has a custom service implementation; merge them`,
        });
      }
      const handled = new Set(Object.keys(impl.customOperations ?? {}));
      implemented.set(impl.resourceType, handled);
      for (const key of handled) {
        if (!resource.declaration.customOperations?.[key]) {
          problems.push({
            declaration: label,
            path: `${path}.customOperations.${key}`,
            message: `"${impl.resourceType}" declares no custom operation "${key}"`,
          });
        }
      }
      for (const hooks of [impl.prefixCoreOperations, impl.postfixCoreOperations]) {
        if (hooks && typeof hooks === 'object') {
          for (const key of Object.keys(hooks)) {
            if (!CORE_OPERATIONS.has(key))
              problems.push({ declaration: label, path, message: `"${key}" is not a core operation` });
          }
        }
      }
    });
  }
  for (const resource of resources.values()) {
    for (const [key, definition] of Object.entries(resource.declaration.customOperations ?? {})) {
      const configured = resource.operations.get(`${resource.type}.${key}`);
      if (definition && configured && !configured.unimplemented && !implemented.get(resource.type)?.has(key)) {
        problems.push({
          declaration: `resource "${resource.type}"`,
          path: `customOperations.${key}`,
          message:
            'has no handler; add it with createResourceCustomServiceImplementation or mark its variants unimplemented',
        });
      }
    }
  }
  return problems;
}

function validateServerInstances(
  application: ResourcesApplication,
  resources: ReadonlyMap<string, CompiledResource>,
): DeclarationProblem[] {
  const problems: DeclarationProblem[] = [];
  const instances = application.resourceServerInstances ?? [];
  const mcp = new Set(instances.filter((i) => i.kind === ResourceServerKind.MCP).map((i) => i.ref));
  const refs = new Set<string>();
  instances.forEach((instance, i) => {
    if (refs.has(instance.ref))
      problems.push({
        declaration: 'application',
        path: `resourceServerInstances[${i}]`,
        message: `duplicate ref "${instance.ref}"`,
      });
    refs.add(instance.ref);
  });
  for (const resource of resources.values()) {
    for (const op of resource.operations.values()) {
      op.mcp?.servers?.forEach((server, i) => {
        if (!mcp.has(server)) {
          problems.push({
            declaration: `resource "${resource.type}"`,
            path: `operationsConfiguration.${op.operation}.mcp.servers[${i}]`,
            message: `no MCP resource server instance "${server}"; declare it in resourceServerInstances`,
          });
        }
      });
    }
  }
  return problems;
}
