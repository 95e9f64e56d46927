// The public surface of the engine: explicit named exports, grouped by capability folder.
export {
  type BackendApplicationDefinition,
  type BackendDomainModule,
  type FlowsActorsContribution,
  defineBackendApplication,
} from './container/backend-domain-module.js';
export {
  validateDeclarations,
  type DeclarationValidationOptions,
  type ValidatedApplication,
} from './container/application-declarations.js';
export { systemClock, type Clock } from './container/clock.js';
export { SAAS_SERVICE_TYPES } from './container/saas-service-types.tokens.js';
export { createWildoBackend, type WildoBackend, type WildoBackendOptions } from './container/wildo-backend.js';
export {
  FRAMEWORK_ERROR_JSON_RPC,
  FRAMEWORK_ERROR_STATUS,
  FrameworkError,
  JSON_RPC_ERROR_CODES,
  REFUSAL_REASONS,
  toFrameworkError,
  toJsonRpcError,
  type FrameworkErrorCode,
  type InputProblem,
  type JsonRpcErrorObject,
  type RefusalReason,
} from './errors/index.js';
export { DEFAULT_HTTP_SETTINGS, type HttpSettings } from './http/http-app.js';
export type { AuthenticatedPrincipal, MachinePrincipal, UserPrincipal } from './identity/principal.types.js';
export { createLogger, createSilentLogger, type Logger } from './logging/index.js';
export type { TenantScope } from './persistence/resource-store.js';
export type { CompiledOperation, CompiledResource } from './resources/compiled-resource.types.js';
export {
  createResourceCustomServiceImplementation,
  type AnyCustomOperationHandler,
  type CustomOperationArgs,
  type CustomOperationHandler,
  type ErrorBuilder,
  type PostfixCoreHandler,
  type PrefixCoreHandler,
  type ResourceCustomServiceHooks,
  type ResourceCustomServiceImplementation,
  type ResourceRecord,
  type ScopedRecords,
  type ServiceHandlerUtils,
} from './resources/custom-service.js';
export type { DispatchSurface, ExecutionContext } from './resources/execution-context.js';
export type { EngineHandleTypes } from './resources/handle-types.js';
export { ExecutionContextCreator } from './resources/execution-context-creator.service.js';
export { OperationAdmission } from './resources/operation-admission.service.js';
export {
  OperationDispatcher,
  type DispatchRequest,
  type DispatchResult,
} from './resources/operation-dispatcher.service.js';
export { DeclarationValidationError, type DeclarationProblem } from './resources/resources.errors.js';
export { DataDirectoryLockedError } from './persistence/data-directory-lock.errors.js';
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
  type Jwt_MachineToken_CreationParameter,
  type MachineAccessTokenRequest,
  type MachineAccessTokenResponse,
} from './identity/access-token.service.js';
export { OIDC_SUPPORTED_IDENTITY_SCOPES } from '@wildo/shared-lib';
export { CimdTrustPolicy } from '@wildo/shared-lib';
export {
  A2A_PROTOCOL_VERSIONS,
  A2aRuntime,
  DEFAULT_PUSH_RETRY,
  type A2aAgentExposure,
  type A2aPushDelivery,
  type A2aPushRetryPolicy,
  type A2aSettings,
  type A2aTask,
  type A2aTaskState,
} from './a2a/index.js';
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
// Agents runtime, model providers, token budgets and model-call observability.
export {
  ActorSystemAccess,
  admitBudget,
  AgentCallRecorder,
  AgentsBackendService,
  agentsContainerModule,
  agentsModule,
  AgentsRegistry,
  APPROVAL_LIFETIME_MS,
  ApprovalService,
  budgetTenantOf,
  budgetTenantOfInitiator,
  catalogueModelResolver,
  ConversationService,
  ConversationStore,
  createAgentsRouter,
  DEFAULT_MAX_TOOL_STEPS,
  defineActorSystem,
  defineChatAgent,
  ExternalMcpConnector,
  HISTORY_WINDOW,
  isLanguageOperation,
  MAX_TOOL_RESULT_CHARS,
  MAX_USER_MESSAGE_CHARS,
  ownerKeyOf,
  READ_TOOL_MAX_RECORDS,
  resourceReadTool,
  resourceWriteTool,
  type AccessRule,
  type ActorSystemDefinition,
  type ActorSystemHandle,
  type AgentCallReport,
  type AgentInvocationResult,
  type AgentModelResolver,
  type AgentsRouterOptions,
  type AppliedDecision,
  type ApprovalDecision,
  type ChatAgent,
  type ChatAgentDefinition,
  type ChatModelOf,
  type ChatProviderRef,
  type CodingAgentInvocationOptions,
  type ConversationTranscript,
  type Execution,
  type ExecutionOwner,
  type ExecutionStatus,
  type ExternalMcpCallResult,
  type ExternalMcpServerDefinition,
  type ExternalMcpSession,
  type ExternalMcpTool,
  type FunctionTool,
  type FunctionToolExecutionContext,
  type FunctionToolResourceOperation,
  type InvokeAgentOptions,
  type PendingApproval,
  type ResolvedAgent,
  type ResourceWriteToolOptions,
  type ResumeTurnRequest,
  type StartTurnRequest,
  type SystemAccessRequest,
  type SystemActorDefinition,
  type SystemAdmission,
  type ToolCaller,
  type ToolCallResult,
  type ToolListOptions,
  type ToolOperationCall,
  type ToolOutcome,
  type ToolRecordPage,
  type ToolRecords,
  type TurnCompletion,
  type TurnEvent,
} from './agents/index.js';
// Coding agents over the Agent Client Protocol (the coding arm of `invokeAgent`).
export {
  AUTO_CONTINUATION_PROMPT,
  BUILT_IN_CODING_AGENT_LAUNCHERS,
  CEILING_TOOL_KINDS,
  CODING_TYPES,
  CodingAgentService,
  codingAgentsModule,
  CodingLocationGuard,
  CodingRunStore,
  defineCodingAgent,
  type CodingAgentBinding,
  type CodingAgentLauncher,
  type CodingAgentOptions,
  type CodingAgentSettings,
  type CodingLocationPredicate,
  type CodingProgressListener,
  type CodingProviderRef,
  type CodingTurnClassifier,
  type CodingTurnSummary,
  type CodingTurnVerdict,
  type StoredCodingRun,
  type StoredCodingSession,
} from './agents/coding/index.js';
export {
  AnthropicAdapter,
  baseUrlEnvVar,
  BUILT_IN_ADAPTER_FACTORIES,
  ConcurrencyLimiter,
  DEFAULT_PROVIDER_MAX_CONCURRENCY,
  EmbeddingsProvider_Model,
  LANGUAGE_MODELS_BY_PROVIDER,
  MODEL_CATALOGUE,
  OpenAIAdapter,
  ProviderCallError,
  ProviderRegistry,
  resolveModel,
  withConcurrencyLimit,
  type ChatStreamEvent,
  type ChatStreamRequest,
  type EmbeddingsRequest,
  type EmbeddingsResult,
  type ImageRequest,
  type ImageResult,
  type LLMProviderAdapter,
  type ProviderCallErrorKind,
  type ProviderMessage,
  type ProviderRegistryOptions,
  type ProviderStatus,
  type ProviderToolCall,
  type ProviderToolSpec,
  type ResolvedModel,
  type StructuredRequest,
  type StructuredResult,
} from './agents/providers/index.js';
export {
  SqlTokenBudgetService,
  tokenBudgetsModule,
  utcMonthOf,
  type BudgetTenant,
  type EffectiveFeatureLimit,
  type FeatureOverrideInput,
  type TokenBudgetAdministration,
  type TokenBudgetDecision,
  type TokenBudgetService,
  type TokenBudgetStatus,
} from './agents/budgets/index.js';
export {
  CompositeTraceSink,
  createTraceSink,
  LoggerTraceSink,
  PostHogTraceSink,
  type AgentTraceSink,
  type CreateTraceSinkOptions,
} from './observability/index.js';
export {
  findProjectRoot,
  loadRuntimeConfiguration,
  readRuntimeConfiguration,
  type RuntimeConfiguration,
} from './config/index.js';
// Background jobs (pg-boss in the application's own database).
export {
  DEFAULT_JOB_QUEUE_DEFINITION,
  DEFAULT_JOB_QUEUE_SETTINGS,
  JOBS_TYPES,
  JobQueueService,
  type EnqueueOptions,
  type JobHandler,
  type JobQueueDefinition,
  type JobQueueServiceOptions,
  type JobQueueSettings,
  type JobRecord,
  type JobRun,
  type JobRunSummary,
  type JobState,
  type WorkOptions,
} from './jobs/index.js';
export {
  EmbeddingsBackendService,
  ExtractionError,
  extractDocumentText,
  FileTextExtractionService,
  RagCorpusMaintenance,
  RagIngestionService,
  RagRetrievalBackendService,
  startRagBackgroundJobs,
  startRagJobs,
  type EmbeddingDrainSummary,
  type EmbeddingsBinding,
  type EmbeddingsBindingResolution,
  type ExtractableFile,
  type ExtractedText,
  type RagArmReport,
  type RagEmbeddingStatus,
  type RagFileSource,
  type RagPassage,
  type RagRetrievalResult,
  type RagRetrievalRow,
  type RagRetrieveRequest,
  type RagSearchStatus,
  type RagTruncation,
} from './rag/index.js';
// Files: storage, records, upload grants.
export {
  FILE_UPLOAD_GRANT_DEFAULT_MINUTES,
  FILE_UPLOAD_GRANT_MAX_MINUTES,
  FILES_TYPES,
  FileRecordsService,
  FileUploadGrantService,
  LocalDirectoryFileStorage,
  UPLOAD_GRANT_HEADER,
  uploadGrantToolName,
  type FileRecord,
  type FileStorage,
  type FileUploadGrantMetadata,
  type UploadGrantResponse,
  type UploadGrantStatus,
} from './files/index.js';
