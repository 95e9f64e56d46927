import type { z } from 'zod';
import { CoreResourceOperation } from '../models/resource-operation.js';
import type { ResourcePrimaryScope } from '../models/resource-scope.js';
import type { ResourceDeclaration, ResourceOperationConfiguration } from './resource-declaration.js';
import type {
  ResourceCustomOperations,
  ResourceFieldName,
  ResourceHandleTools,
  ResourceOperationHandlers,
  ResourceOperationName,
  ResourceServiceHooks,
  ResourceServiceImplementation,
  ResourceSpec,
  TypedResourceOperationVariant,
} from './resource-handle.types.js';
import {
  buildResourceTool,
  defaultReadToolDescription,
  defaultWriteToolDescription,
  defaultWriteToolInput,
  ResourceReadToolInputSchema,
  resourceToolRef,
  writeToolOnlyReads,
} from './resource-tool-builder.js';

/**
 * The declaration `defineResource` takes: the guide's shape, with roles typed to the scope, filters to the
 * schema's filterable fields, and operation names to the core operations and the declared custom operations.
 */
export interface ResourceDeclarationInput<
  TType extends string,
  TSchema extends z.ZodObject,
  TScope extends ResourcePrimaryScope,
  TCustom extends ResourceCustomOperations,
  TOperation extends string,
  TReadOnly extends ResourceFieldName<TSchema>,
  TInternal extends ResourceFieldName<TSchema>,
> extends Omit<
  ResourceDeclaration<TType, TSchema>,
  'primaryScope' | 'customOperations' | 'operationsConfiguration' | 'readOnlyFields' | 'internalFields'
> {
  primaryScope: TScope;
  readOnlyFields?: readonly TReadOnly[];
  internalFields?: readonly TInternal[];
  customOperations?: TCustom;
  operationsConfiguration: {
    readonly [K in TOperation]: `${K}` extends ResourceOperationName<TCustom>
      ? { variants: readonly TypedResourceOperationVariant<TScope, TSchema>[] }
      : ResourceOperationConfiguration & {
          operationIsNotDeclared: 'use a CoreResourceOperation, or declare the operation in customOperations';
        };
  };
}

// Type-only key of the phantom member that carries a handle's spec (no value exists at run time).
declare const resourceSpec: unique symbol;

/** What a handle adds to its declaration (not enumerable: the declaration itself stays plain data). */
export interface ResourceHandleMembers<S extends ResourceSpec> {
  /** The handle's spec, for types only (`ResourceSpecOf<typeof todos>`); never set. */
  readonly [resourceSpec]?: S;
  /**
   * The resource's service code: one handler per declared custom operation, typed from its declaration (input
   * from the request schema, `id` for an instance operation only, the result from the response schema), and the
   * optional core-operation hooks. The result goes in a module's `customServiceImplementations`.
   */
  implement(operations: ResourceOperationHandlers<S>, hooks?: ResourceServiceHooks): ResourceServiceImplementation<S>;
  /** Function tools over the resource's operations, for agents. */
  readonly tools: ResourceHandleTools<S>;
}

/**
 * A declared resource: its declaration (usable wherever a declaration is, e.g. a module's `resources`) plus typed
 * helpers that take the place of the resource type string everywhere else.
 */
export type ResourceHandle<S extends ResourceSpec> = ResourceDeclaration<S['type'], S['schema']> & {
  readonly type: S['type'];
  readonly primaryScope: S['scope'];
} & ResourceHandleMembers<S>;

/** Any resource handle. */
export type AnyResourceHandle = ResourceHandle<ResourceSpec>;

/** The spec of a handle, to type code around it (`ResourceRecordOf<ResourceSpecOf<typeof todos>>`). */
export type ResourceSpecOf<THandle extends { readonly [resourceSpec]?: ResourceSpec }> = Exclude<
  THandle[typeof resourceSpec],
  undefined
>;

/**
 * Declares a resource and returns its handle. The declaration keeps the guide's shape; the handle types its
 * service code and tools from it.
 *
 * @example
 * export const todos = defineResource({ type: 'todos', displayName: 'Todos', primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
 *   schema: TodoSchema, operationsConfiguration: { [CoreResourceOperation.READ]: { variants: [...] } } });
 * export const todosService = todos.implement({ complete: async ({ id, input, utils }) => ... });
 * const readTodos = todos.tools.read();
 */
export function defineResource<
  const TType extends string,
  TSchema extends z.ZodObject,
  const TScope extends ResourcePrimaryScope,
  const TCustom extends ResourceCustomOperations = Record<never, never>,
  const TOperation extends string = never,
  const TReadOnly extends ResourceFieldName<TSchema> = never,
  const TInternal extends ResourceFieldName<TSchema> = never,
>(
  declaration: ResourceDeclarationInput<TType, TSchema, TScope, TCustom, TOperation, TReadOnly, TInternal>,
): ResourceHandle<{
  type: TType;
  schema: TSchema;
  scope: TScope;
  custom: TCustom;
  // Enum members (`CoreResourceOperation.READ`) become their string values, so 'read' and the member both match.
  operation: `${TOperation}`;
  readOnly: TReadOnly;
  internal: TInternal;
}> {
  return createResourceHandle(declaration);
}

function createResourceHandle<S extends ResourceSpec>(
  declaration: ResourceDeclaration<S['type'], S['schema']> & { primaryScope: S['scope'] },
): ResourceHandle<S> {
  const tools: ResourceHandleTools<S> = {
    read: (options = {}) =>
      buildResourceTool(resourceToolRef(declaration.type, CoreResourceOperation.READ), {
        kind: 'lookup',
        resourceType: declaration.type,
        operation: CoreResourceOperation.READ,
        description: options.description ?? defaultReadToolDescription(declaration.type),
        inputSchema: ResourceReadToolInputSchema,
        readOnly: true,
      }),
    write(operation, options = {}) {
      return buildResourceTool(resourceToolRef(declaration.type, operation), {
        kind: 'operation',
        resourceType: declaration.type,
        operation,
        description: options.description ?? defaultWriteToolDescription(declaration, operation),
        inputSchema: options.inputSchema ?? defaultWriteToolInput(declaration, operation),
        readOnly: writeToolOnlyReads(declaration, operation),
        ...(options.requiresHumanApproval !== undefined
          ? { requiresHumanApproval: options.requiresHumanApproval }
          : {}),
        ...(options.allowArgumentModification !== undefined
          ? { allowArgumentModification: options.allowArgumentModification }
          : {}),
      });
    },
  };
  const handle: ResourceHandle<S> = {
    ...declaration,
    implement: (operations, hooks) => ({ ...hooks, resourceType: declaration.type, customOperations: operations }),
    tools,
  };
  // The helpers stay off the declaration's own data: it is validated strictly and serialized by reports.
  Object.defineProperty(handle, 'implement', { enumerable: false });
  Object.defineProperty(handle, 'tools', { enumerable: false });
  return handle;
}
