import { CoreResourceOperation } from '@wildo/shared-lib';
import { servicePathOf, type CompiledOperation, type CompiledResource } from '../../resources/index.js';
import type { FunctionTool } from '../tools/index.js';

/** What start-up validation of tools reads of the application's resources. */
export interface DeclaredResources {
  /** The resources that compiled, by type. */
  resources: ReadonlyMap<string, CompiledResource>;
  /** Types whose declaration was already refused: a tool over one adds no line of its own. */
  refusedTypes: ReadonlySet<string>;
}

/** No resources at all (an application that declares none, or a registry built without them). */
export const NO_DECLARED_RESOURCES: DeclaredResources = { resources: new Map(), refusedTypes: new Set() };

/** One problem of a tool's target, without the tool's label. */
export interface ToolTargetProblem {
  path: string;
  message: string;
}

const quoted = (values: readonly string[]) => values.map((value) => `"${value}"`).join(', ');

/**
 * Why a tool over a resource operation could never run: no module registers the resource, the resource does not
 * declare the operation or variant, or the variant is unimplemented or retired. Undefined when it can run, when the
 * tool names no resource operation, or when the resource was already refused. An approval-gated tool says so: a
 * person would be asked to approve a call that then fails.
 *
 * @example
 * toolTargetProblem(resourceReadTool('projects'), declared); // { path: 'resourceOperation.resourceType', message: 'no resource "projects" ...' }
 */
export function toolTargetProblem(tool: FunctionTool, declared: DeclaredResources): ToolTargetProblem | undefined {
  const target = tool.resourceOperation;
  if (!target) return undefined;
  const { resourceType, operation, variantKey } = target;
  const gate = tool.requiresHumanApproval === true ? 'a person would approve calls that always fail; ' : '';
  const resource = declared.resources.get(resourceType);
  if (!resource) {
    if (declared.refusedTypes.has(resourceType)) return undefined;
    return {
      path: 'resourceOperation.resourceType',
      message: `no resource "${resourceType}" is registered; ${gate}add the module that declares it to the application, or fix the type`,
    };
  }
  const variants = [...resource.operations.values()].filter((candidate) => candidate.operation === operation);
  if (variants.length === 0) {
    const operations = [...new Set([...resource.operations.values()].map((candidate) => candidate.operation))];
    return {
      path: 'resourceOperation.operation',
      message:
        `resource "${resourceType}" declares no operation "${operation}" (it declares ${quoted(operations) || 'none'}); ` +
        `${gate}declare it in the resource's operationsConfiguration, or build the tool over a declared one`,
    };
  }
  const compiled = resource.operations.get(servicePathOf(resourceType, operation, variantKey));
  if (!compiled) {
    return {
      path: 'resourceOperation.variantKey',
      message:
        `operation "${operation}" of resource "${resourceType}" has no variant "${variantKey ?? 'default'}" (its variants: ${quoted(variants.map((v) => v.variantKey))}); ` +
        `${gate}declare the variant, or use one of those`,
    };
  }
  const blocked = compiled.unimplemented ? 'unimplemented' : compiled.lifecycle === 'retired' ? 'retired' : undefined;
  if (!blocked) return idClash(tool, compiled);
  return {
    path: 'resourceOperation.operation',
    message: `"${compiled.servicePath}" is ${blocked}, so every call is refused; ${gate}implement the operation, or remove the tool`,
  };
}

/**
 * A resource tool's string `id` argument addresses the record of an instance operation; over a collection
 * operation other than CREATE there is no record, so an `id` field would be taken for one.
 */
function idClash(tool: FunctionTool, compiled: CompiledOperation): ToolTargetProblem | undefined {
  if (compiled.target !== 'collection' || compiled.core === CoreResourceOperation.CREATE) return undefined;
  if (!('id' in tool.inputSchema.shape)) return undefined;
  return {
    path: 'inputSchema.id',
    message: `"${compiled.servicePath}" addresses no record, but the tool's input has an "id" (a tool's id names the record of an instance operation); rename the field`,
  };
}
