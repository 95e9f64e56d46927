import type {
  ResourceCustomOperationKey,
  ResourceHandle,
  ResourceOperationInput,
  ResourceOperationOutput,
  ResourceServiceImplementation,
  ResourceSpec,
} from '@wildo/shared-lib';
import type { ResourcesApplication } from '../resources/index.js';
import type { AnyCustomOperationHandler, ResourceCustomServiceImplementation } from '../resources/index.js';
import type { ExecutionContext } from '../resources/index.js';
import type { OperationBinding } from './connector.types.js';
import { CONNECTORS_TYPES } from './connectors.tokens.js';

/** How a bound operation's handler reaches the connectors (the engine's {@link ConnectorRuntime}). */
export interface ConnectorInvoker {
  invoke(resourceType: string, operation: string, input: unknown, context: ExecutionContext): Promise<unknown>;
}

/** One bound operation, as declared. */
export interface DeclaredBinding {
  resourceType: string;
  operation: string;
  binding: OperationBinding;
  /** Where the declaration came from, for start-up messages (`module "travel-desk"`, a manifest file). */
  origin?: string;
}

/** Every custom operation of a resource, each bound to its backend: typed from the resource's declaration. */
export type ResourceBindings<S extends ResourceSpec> = {
  readonly [K in ResourceCustomOperationKey<S>]: OperationBinding<
    ResourceOperationInput<S, K>,
    ResourceOperationOutput<S, K>
  >;
};

const BINDINGS: unique symbol = Symbol('wildo.connectors.bindings');

type BoundImplementation = ResourceCustomServiceImplementation & { readonly [BINDINGS]?: readonly DeclaredBinding[] };

/**
 * The service implementation of operations answered by connectors: each handler hands its validated input and the
 * caller's context to the connector runtime. Used by {@link bindResource} and by the manifest loader.
 */
export function boundImplementation(
  resourceType: string,
  bindings: Readonly<Record<string, OperationBinding>>,
  origin?: string,
): ResourceCustomServiceImplementation {
  const customOperations: Record<string, AnyCustomOperationHandler> = {};
  const declared: DeclaredBinding[] = [];
  for (const [operation, binding] of Object.entries(bindings)) {
    declared.push({ resourceType, operation, binding, ...(origin ? { origin } : {}) });
    customOperations[operation] = ({ input, executionContext, utils }) =>
      utils
        .resolve<ConnectorInvoker>(CONNECTORS_TYPES.ConnectorRuntime)
        .invoke(resourceType, operation, input, executionContext);
  }
  const implementation: ResourceCustomServiceImplementation = { resourceType, customOperations };
  // Not enumerable: the implementation stays what modules list; the runtime finds its bindings by this key.
  Object.defineProperty(implementation, BINDINGS, { value: declared, enumerable: false });
  return implementation;
}

/**
 * Binds a resource's custom operations to backends instead of implementing them: a REST call or a SELECT per
 * operation. The operations stay ordinary operations (REST routes, MCP tools, agent tools, one dispatch path):
 * admission, the input contract, policies and approval run before the backend is asked, and projection judges what
 * it answered. The result goes in a module's `customServiceImplementations`.
 *
 * @example
 * const agency = restConnector({ name: 'travel-agency', baseUrl: '${TRAVEL_AGENCY_API_URL}' });
 * export const staysBinding = bindResource(stays, {
 *   details: { connector: agency, method: 'GET', path: '/v1/stays/{stayId}', response: { into: 'stay', map: { name: '$.name' } } },
 * });
 */
export function bindResource<S extends ResourceSpec>(
  handle: ResourceHandle<S>,
  bindings: ResourceBindings<S>,
): ResourceServiceImplementation<S> {
  const implementation = boundImplementation(handle.type, bindings as Readonly<Record<string, OperationBinding>>);
  return implementation as unknown as ResourceServiceImplementation<S>;
}

/** The bindings an application declares, in module order. */
export function declaredBindings(application: ResourcesApplication): DeclaredBinding[] {
  return application.modules.flatMap((module) =>
    (module.customServiceImplementations ?? []).flatMap((implementation) =>
      ((implementation as BoundImplementation)[BINDINGS] ?? []).map((binding) => ({
        ...binding,
        origin: binding.origin ?? `module "${module.name}"`,
      })),
    ),
  );
}
