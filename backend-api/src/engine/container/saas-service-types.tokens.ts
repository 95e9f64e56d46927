/**
 * Injection tokens of the engine's services. Interfaces are bound to these symbols; application code
 * injects them with `@inject(SAAS_SERVICE_TYPES.X)`. `Symbol.for` keeps them equal across module copies.
 */
export const SAAS_SERVICE_TYPES = {
  // Platform
  Logger: Symbol.for('wildo.Logger'),
  Container: Symbol.for('wildo.Container'),
  RuntimeConfiguration: Symbol.for('wildo.RuntimeConfiguration'),
  Clock: Symbol.for('wildo.Clock'),
  PrimarySecret: Symbol.for('wildo.PrimarySecret'),
  IdentitySettings: Symbol.for('wildo.IdentitySettings'),
  /** The backend's public URLs (`PublicUrls`): the source of every absolute URL it writes. */
  PublicUrls: Symbol.for('wildo.PublicUrls'),
  /** Where the backend's mails go (`MailSender`): SMTP, the outbox, or the application's own. */
  MailSender: Symbol.for('wildo.MailSender'),
  /** The development outbox (`OutboxMailSender`), bound only in development when mails go there. */
  DevelopmentOutbox: Symbol.for('wildo.DevelopmentOutbox'),
  Database: Symbol.for('wildo.Database'),
  ResourceStore: Symbol.for('wildo.ResourceStore'),
  Coordination: Symbol.for('wildo.Coordination'),
  // Resources and dispatch
  /** The application definition: its modules and what they contribute. */
  ApplicationDefinition: Symbol.for('wildo.ApplicationDefinition'),
  ResourcesRegistry: Symbol.for('wildo.ResourcesRegistry'),
  /** The organization's declared resources as the host UI's pages render them (`ResourceDescriptions`). */
  ResourceDescriptions: Symbol.for('wildo.ResourceDescriptions'),
  ServicesRegistryHandler: Symbol.for('wildo.ServicesRegistryHandler'),
  ExecutionContextCreator: Symbol.for('wildo.ExecutionContextCreator'),
  OperationDispatcher: Symbol.for('wildo.OperationDispatcher'),
  OperationAdmission: Symbol.for('wildo.OperationAdmission'),
  RateLimitService: Symbol.for('wildo.RateLimitService'),
  RoleHierarchyResolver: Symbol.for('wildo.RoleHierarchyResolver'),
  /** The dispatch path's check of `z_file` values, bound by the files capability (`FILES_TYPES.FileReferenceCheck`). */
  FileReferenceCheck: Symbol.for('wildo.FileReferenceCheck'),
  /** The dispatch path's `approval` step (`OperationApprovals`), bound by the approvals capability. */
  OperationApprovals: Symbol.for('wildo.OperationApprovals'),
  /** The audit trail every dispatched call is recorded in (`AuditTrail`), bound by the audit capability. */
  AuditTrail: Symbol.for('wildo.AuditTrail'),
  // Identity
  Authenticator: Symbol.for('wildo.Authenticator'),
  AuthenticationStrategies: Symbol.for('wildo.AuthenticationStrategies'),
  PasswordHasher: Symbol.for('wildo.PasswordHasher'),
  SigningKeyService: Symbol.for('wildo.SigningKeyService'),
  AccessTokenService: Symbol.for('wildo.AccessTokenService'),
  UsersService: Symbol.for('wildo.UsersService'),
  /** Sign-up by mailed link, and proof of an account's address (`EmailOwnershipService`). */
  EmailOwnershipService: Symbol.for('wildo.EmailOwnershipService'),
  /** Sends the identity mails (sign-up links, invitations) with links to the pages (`IdentityMailer`). */
  IdentityMailer: Symbol.for('wildo.IdentityMailer'),
  OrganizationsService: Symbol.for('wildo.OrganizationsService'),
  InvitationsService: Symbol.for('wildo.InvitationsService'),
  PrincipalDirectory: Symbol.for('wildo.PrincipalDirectory'),
  StepUpService: Symbol.for('wildo.StepUpService'),
  ConsumableTokenService: Symbol.for('wildo.ConsumableTokenService'),
  // Credentials and OAuth
  CredentialSecrets: Symbol.for('wildo.CredentialSecrets'),
  CredentialDirectory: Symbol.for('wildo.CredentialDirectory'),
  OAuthSettings: Symbol.for('wildo.OAuthSettings'),
  OAuthClientDirectory: Symbol.for('wildo.OAuthClientDirectory'),
  ConsentGrantsService: Symbol.for('wildo.ConsentGrantsService'),
  AuthorizationCodeService: Symbol.for('wildo.AuthorizationCodeService'),
  ConsentRequestService: Symbol.for('wildo.ConsentRequestService'),
  AuthorizationService: Symbol.for('wildo.AuthorizationService'),
  TokenEndpointService: Symbol.for('wildo.TokenEndpointService'),
  TokenRevocations: Symbol.for('wildo.TokenRevocations'),
  CimdResolver: Symbol.for('wildo.CimdResolver'),
  // Agents, resource servers and MCP (bound by their own modules or at start)
  AgentsBackendService: Symbol.for('wildo.AgentsBackendService'),
  AgentsRegistry: Symbol.for('wildo.AgentsRegistry'),
  ApprovalService: Symbol.for('wildo.ApprovalService'),
  ConversationService: Symbol.for('wildo.ConversationService'),
  ConversationStore: Symbol.for('wildo.ConversationStore'),
  ExternalMcpConnector: Symbol.for('wildo.ExternalMcpConnector'),
  AgentCallRecorder: Symbol.for('wildo.AgentCallRecorder'),
  LLMProviderRegistry: Symbol.for('wildo.LLMProviderRegistry'),
  ResourceServerInstancesRegistry: Symbol.for('wildo.ResourceServerInstancesRegistry'),
  ResourceServerAuthenticator: Symbol.for('wildo.ResourceServerAuthenticator'),
  McpToolCatalogue: Symbol.for('wildo.McpToolCatalogue'),
  // Model-call observability and token budgets
  AgentTraceSink: Symbol.for('wildo.AgentTraceSink'),
  TokenBudgetService: Symbol.for('wildo.TokenBudgetService'),
  BudgetAdmission: Symbol.for('wildo.BudgetAdmission'),
  // RAG: ingestion (bound at start, it wraps the store), embeddings, retrieval, corpus maintenance
  RagIngestionService: Symbol.for('wildo.RagIngestionService'),
  EmbeddingsBackendService: Symbol.for('wildo.EmbeddingsBackendService'),
  RagRetrievalService: Symbol.for('wildo.RagRetrievalService'),
  RagCorpusMaintenance: Symbol.for('wildo.RagCorpusMaintenance'),
} as const;
