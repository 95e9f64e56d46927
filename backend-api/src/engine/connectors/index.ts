export {
  bindResource,
  boundImplementation,
  declaredBindings,
  type DeclaredBinding,
  type ResourceBindings,
} from './bind-resource.js';
export { compileApplicationBindings, compileBindingsOrThrow } from './connector-bindings.js';
export { ConnectorRuntime, type ConnectorRuntimeOptions } from './connector-runtime.js';
export { restConnector, sqlConnector } from './connectors.js';
export { ConnectorSetupError } from './connectors.errors.js';
export { CONNECTORS_TYPES } from './connectors.tokens.js';
export type {
  Connector,
  ErrorRowCondition,
  ErrorRowMapping,
  IdentityClaim,
  JsonPath,
  OperationBinding,
  ResponseMapping,
  RestConnector,
  RestMethod,
  RestOperationBinding,
  SqlConnector,
  SqlOperationBinding,
} from './connector.types.js';
export { compileJsonPath, JsonPathProblem, type CompiledJsonPath } from './json-path.js';
export type { BackendFailure, FailureMapper } from './rest/rest-call.js';
export { loadCapabilityManifest, operationNameOf, type CapabilityManifestOptions } from './manifest/load-manifest.js';
