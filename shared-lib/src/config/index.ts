// The application configuration: its schema, the typed helpers `wildo.saas.config.ts` uses, the provider catalogue.
export { APPLICATION_ENVIRONMENT } from './application-environment.js';
export {
  AuthConfigSchema,
  CimdConfigSchema,
  CimdTrustPolicy,
  DynamicClientRegistrationConfigSchema,
  type AuthConfig,
  type CimdConfig,
  type DynamicClientRegistrationConfig,
} from './auth.schema.js';
export {
  codingAgentBindingProblems,
  codingAgentExecutionProfile,
  collectCodingAgentConfigProblems,
  type CodingAgentBindingProblem,
  type CodingAgentBindingRef,
  type CodingAgentRulesConfig,
} from './coding-agent.rules.js';
export { formatConfigPath, type ConfigProblem, type CrossFieldProblem } from './config-problem.js';
export { defineSaaSConfig } from './define-saas-config.js';
export {
  defineSaaSProviders,
  type TypedProviderDeclaration,
  type TypedProviderScope,
  type TypedProviderSelection,
  type TypedSaaSProviders,
} from './define-saas-providers.js';
export {
  AgentClientProtocol_AuthMode,
  AgentClientProtocol_HostConfigurationInheritance,
  AgentClientProtocol_PermissionCeiling,
  AgentClientProtocol_RunnerHost,
  AgentClientProtocol_WorkingDirectoryPolicy,
  ExternalProvider_ExchangeProtocol_Kind,
  RESERVED_EXCHANGE_PROTOCOL_KINDS,
} from './external-provider.models.js';
export {
  A2A_TOKEN_BUDGET_FEATURE_ID,
  A2ATokenBudgetDenialReason,
  GrantedLimitSchema,
  LimitGrantMode,
  PRODUCT_SCOPES,
  ProductCatalogSchema,
  ProductDefinitionSchema,
  type GrantedLimit,
  type ProductDefinition,
  type ProductDefinitionInput,
  type ProductScope,
} from './products.schema.js';
export {
  BUILT_IN_PROVIDER_CATALOG,
  findCatalogProvider,
  listCatalogProviderNames,
  PROVIDER_CAPABILITIES,
  type BuiltInProviderCatalog,
  type BuiltInProviderName,
  type CatalogProviderOffering,
  type ProviderCapability,
  type ProviderCatalogEntry,
  type ProviderCatalogOffering,
  type ProviderCatalogType,
  type ProviderCatalogTypeEntry,
  type ProviderProtocolName,
  type RegisteredProviderCatalog,
  type WildoGeneratedTypes,
} from './provider-catalog.js';
export { isCapabilityEnabled } from './provider.rules.js';
export {
  AgentClientProtocolConfigurationSchema,
  AgentClientProtocolExecutionProfileSchema,
  PROVIDER_SCOPES,
  ProviderConfigurationsSchema,
  ProviderDeclarationSchema,
  ProviderScopeSchema,
  ProviderSelectionSchema,
  SaaSProvidersSchema,
  type AgentClientProtocolExecutionProfile,
  type ProviderConfigurations,
  type ProviderDeclaration,
  type ProviderScope,
  type ProviderScopeName,
  type ProviderSelection,
  type ProviderSelectionInput,
  type SaaSProviders,
  type SaaSProvidersInput,
} from './providers.schema.js';
export {
  EndPointSchema,
  FrontendServiceSchema,
  FrontendServicesSchema,
  LlmObservabilityConfigSchema,
  MAIN_BACKEND_API_ENDPOINT,
  ObservabilityConfigSchema,
  PublicUrlSchema,
  RuntimeSectionSchema,
  type FrontendService,
  type LlmObservabilityConfig,
  type ObservabilityConfig,
  type RuntimeSection,
} from './runtime.schema.js';
export {
  ApplicationSectionSchema,
  EngineCapabilitiesSchema,
  SaaSConfigSchema,
  SaaSConfigStructureSchema,
  type EngineCapabilities,
  type SaaSConfig,
  type SaaSConfigInput,
} from './saas-config.schema.js';
export { validateSaaSConfig, type SaaSConfigValidation } from './validate-saas-config.js';
