// The public surface of the engine: explicit named exports, grouped by capability folder.
export { type BackendApplicationDefinition, type BackendDomainModule, type FlowsActorsContribution, defineBackendApplication } from './container/backend-domain-module.js';
export { systemClock, type Clock } from './container/clock.js';
export { SAAS_SERVICE_TYPES } from './container/saas-service-types.tokens.js';
export { createWildoBackend, type WildoBackend, type WildoBackendOptions } from './container/wildo-backend.js';
export {
  FRAMEWORK_ERROR_STATUS,
  FrameworkError,
  REFUSAL_REASONS,
  toFrameworkError,
  type FrameworkErrorCode,
  type InputProblem,
  type RefusalReason,
} from './errors/index.js';
export { DEFAULT_HTTP_SETTINGS, type HttpSettings } from './http/http-app.js';
export type { AuthenticatedPrincipal, MachinePrincipal, UserPrincipal } from './identity/principal.types.js';
export { createLogger, createSilentLogger, type Logger } from './logging/index.js';
export type { TenantScope } from './persistence/resource-store.js';
export type { CompiledOperation, CompiledResource } from './resources/compiled-resource.types.js';
export {
  createResourceCustomServiceImplementation,
  type CustomOperationArgs,
  type CustomOperationHandler,
  type ErrorBuilder,
  type PostfixCoreHandler,
  type PrefixCoreHandler,
  type ResourceCustomServiceImplementation,
  type ResourceRecord,
  type ScopedRecords,
  type ServiceHandlerUtils,
} from './resources/custom-service.js';
export type { DispatchSurface, ExecutionContext } from './resources/execution-context.js';
export { ExecutionContextCreator } from './resources/execution-context-creator.service.js';
export { OperationAdmission } from './resources/operation-admission.service.js';
export { OperationDispatcher, type DispatchRequest, type DispatchResult } from './resources/operation-dispatcher.service.js';
export { DeclarationValidationError, type DeclarationProblem } from './resources/resources.errors.js';
export { ResourcesRegistry } from './resources/resources-registry.service.js';
export { RoleHierarchyResolver } from './resources/role-hierarchy.service.js';
export { ServicesRegistryHandler } from './resources/services-registry-handler.service.js';
export { ResourceServerAuthenticator } from './resource-servers/resource-server.authenticator.js';
export {
  DELEGATED_TOKEN_RESOURCE_SERVERS,
  ResourceServerInstancesRegistryBackendService,
  type ResourceServerEndpoint,
} from './resource-servers/resource-server-instances.registry.js';
export { assertRequestedRolesWithinCallerCeiling } from './credentials/roles-ceiling.js';
export { generateApiKeyMaterial, type ApiKeyScope } from './credentials/api-key-material.js';
export { buildApiKeyMintHandlers, type ApiKeyImplHandlers } from './credentials/api-keys.custom-impl.service.js';
export {
  AccessTokenService,
  type MachineAccessTokenRequest,
  type MachineAccessTokenResponse,
} from './identity/access-token.service.js';
export { OIDC_SUPPORTED_IDENTITY_SCOPES } from '@wildo/shared-lib';
export { CimdTrustPolicy } from '@wildo/shared-lib';
export { MCP_SUPPORTED_PROTOCOL_VERSIONS } from './mcp/mcp-protocol.js';
export {
  McpClientCapabilityRequired,
  type McpContentBlock,
  type McpCustomTool,
  type McpCustomToolContext,
  type McpToolAnnotations,
  type McpToolDescriptor,
  type McpToolResult,
} from './mcp/mcp-tools.types.js';
