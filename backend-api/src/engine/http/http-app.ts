import express, { type Express } from 'express';
import type { Container } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { CounterPolicy } from '../coordination/coordination.js';
import type { AccessTokenService } from '../identity/access-token.service.js';
import { createAuthRouter, createJwksRouter } from '../identity/auth.routes.js';
import type { Authenticator } from '../identity/authenticator.service.js';
import { DeviceCookies } from '../identity/device-cookies.js';
import type { EmailOwnershipService } from '../identity/email-ownership.service.js';
import type { PrimarySecret } from '../identity/primary-secret.js';
import type { IdentitySettings } from '../identity/identity-settings.js';
import { LoginThrottle } from '../identity/login-throttle.js';
import { createInvitationsRouter } from '../identity/invitations.routes.js';
import type { InvitationsService } from '../identity/invitations.service.js';
import { createOrganizationsRouter } from '../identity/organizations.routes.js';
import type { OrganizationsService } from '../identity/organizations.service.js';
import type { PrincipalDirectory } from '../identity/principal-directory.js';
import type { SigningKeyService } from '../identity/signing-keys.service.js';
import type { StepUpService } from '../identity/step-up.service.js';
import type { UsersService } from '../identity/users.service.js';
import type { Logger } from '../logging/index.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import type { OperationDispatcher } from '../resources/operation-dispatcher.service.js';
import type { RateLimitService } from '../resources/rate-limit.service.js';
import type { ResourcesRegistry } from '../resources/resources-registry.service.js';
import type { RoleHierarchyResolver } from '../resources/role-hierarchy.service.js';
import { A2aRuntime } from '../a2a/a2a.module.js';
import { createA2aRouter, createA2aWellKnownRouter } from '../a2a/a2a.routes.js';
import type { CoordinationBackend } from '../coordination/coordination.js';
import { createAgentsRouter } from '../agents/agents.routes.js';
import type { ApprovalService } from '../agents/approvals/approval.service.js';
import type { ConversationService } from '../agents/conversations/conversation.service.js';
import { createFileGrantRouter, createFileUploadRouter } from '../files/file-upload.routes.js';
import type { FileUploadGrantService } from '../files/file-upload-grant.service.js';
import type { FileUploadRedemption } from '../files/file-upload-redemption.js';
import { FILES_TYPES } from '../files/files.tokens.js';
import { createOutboxRouter, type OutboxMailSender } from '../mail/index.js';
import { createMcpRouter } from '../mcp/mcp.routes.js';
import type { PublicUrls } from '../public-urls/index.js';
import { McpToolCallService } from '../mcp/tool-call.service.js';
import type { McpToolCatalogue } from '../mcp/tool-catalogue.service.js';
import type { AuthorizationService } from '../oauth/authorization.service.js';
import { createProtectedResourceMetadataRouter } from '../resource-servers/protected-resource.routes.js';
import type { ResourceServerAuthenticator } from '../resource-servers/resource-server.authenticator.js';
import type { ResourceServerInstancesRegistryBackendService } from '../resource-servers/resource-server-instances.registry.js';
import { createDiscoveryRouter } from '../oauth/discovery.routes.js';
import { createAuthorizationRouter, createTokenAndRegistrationRouter } from '../oauth/oauth.routes.js';
import type { OAuthSettings } from '../oauth/oauth-settings.js';
import { RegistrationService } from '../oauth/registration.service.js';
import type { TokenEndpointService } from '../oauth/token-endpoint.service.js';
import { accessLogMiddleware } from './access-log.middleware.js';
import { createFrontendRouter } from './frontend-assets.js';
import { authenticationMiddleware, burstThrottleMiddleware } from './authentication.middleware.js';
import { errorMiddleware, notFoundHandler } from './error.middleware.js';
import { DEFAULT_EVENT_STREAM_SETTINGS, EventStreams, type EventStreamSettings } from './event-streams.js';
import { createHealthRouter } from './health.routes.js';
import { jsonBodyMiddleware } from './json-body.middleware.js';
import { requestContextMiddleware } from './request-context.middleware.js';
import { createResourceRouter } from './resource.routes.js';
import { onlyUnder } from './route-prefix.js';
import { storableUrlMiddleware } from './storable-url.middleware.js';

/** Where the REST API is mounted. */
export const API_PREFIX = '/api/v1';

/** HTTP settings, each with its default. */
export interface HttpSettings {
  /** Largest accepted JSON body (default 1 MiB). */
  bodyLimitBytes: number;
  /** The blanket per-principal burst throttle (default 600 requests per 10 s). */
  burst: CounterPolicy;
  /** Express `trust proxy` (default false: the socket address is the client address). */
  trustProxy: boolean | number | string;
  /** A built frontend to serve from the backend's origin (the consent page lives there); none by default. */
  frontendDist?: string;
  /** Server-sent event streams: per-principal count, heartbeat, idle timeout (defaults in `DEFAULT_EVENT_STREAM_SETTINGS`). */
  streams: Partial<EventStreamSettings>;
}

/** Defaults of {@link HttpSettings}. */
export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  bodyLimitBytes: 1024 * 1024,
  burst: { points: 600, durationMs: 10_000 },
  trustProxy: false,
  streams: DEFAULT_EVENT_STREAM_SETTINGS,
};

/**
 * Builds the Express application: request context, health and JWKS (public), JSON bodies, authentication,
 * the burst throttle, identity routes, generated resource routes, then not-found and the error middleware.
 */
export function createHttpApp(container: Container, settings: HttpSettings): Express {
  const get = <T>(token: symbol) => container.get<T>(token);
  const logger = get<Logger>(SAAS_SERVICE_TYPES.Logger);
  const rateLimits = get<RateLimitService>(SAAS_SERVICE_TYPES.RateLimitService);
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', settings.trustProxy);
  app.set('query parser', 'simple');

  const oauthSettings = get<OAuthSettings>(SAAS_SERVICE_TYPES.OAuthSettings);
  const streams = new EventStreams({ ...DEFAULT_EVENT_STREAM_SETTINGS, ...settings.streams });
  app.use(requestContextMiddleware);
  app.use(accessLogMiddleware(logger, API_PREFIX));
  app.use(storableUrlMiddleware);
  // The API's own steps, in order, for its routes and for resource operations (served before the API router).
  const apiSteps = [
    jsonBodyMiddleware(settings.bodyLimitBytes),
    authenticationMiddleware(get<Authenticator>(SAAS_SERVICE_TYPES.Authenticator)),
    burstThrottleMiddleware(rateLimits, settings.burst),
  ];
  // Resource routes first: they carry most traffic, and their paths cannot collide with the engine's own
  // (reserved segments are refused at start).
  app.use(
    createResourceRouter({
      registry: get<ResourcesRegistry>(SAAS_SERVICE_TYPES.ResourcesRegistry),
      dispatcher: get<OperationDispatcher>(SAAS_SERVICE_TYPES.OperationDispatcher),
      prefix: API_PREFIX,
      before: apiSteps,
    }),
  );
  const a2a = container.get(A2aRuntime);
  const resourceServers = get<ResourceServerInstancesRegistryBackendService>(
    SAAS_SERVICE_TYPES.ResourceServerInstancesRegistry,
  );
  app.use(
    onlyUnder('/.well-known/', [
      createJwksRouter(get<SigningKeyService>(SAAS_SERVICE_TYPES.SigningKeyService)),
      createDiscoveryRouter(oauthSettings),
      createProtectedResourceMetadataRouter(resourceServers, oauthSettings.issuer),
      createA2aWellKnownRouter(a2a.agents, oauthSettings),
    ]),
  );
  const api = express.Router();
  api.use(onlyUnder('/health', [createHealthRouter(get<SqlDatabase>(SAAS_SERVICE_TYPES.Database))]));
  // Development only: the mails kept instead of sent, like a local mail catcher (no credential).
  if (container.isBound(SAAS_SERVICE_TYPES.DevelopmentOutbox))
    api.use(onlyUnder('/dev/', [createOutboxRouter(get<OutboxMailSender>(SAAS_SERVICE_TYPES.DevelopmentOutbox))]));
  // Upload grant holders need no session: the grant travels in its own header, the file as multipart.
  const fileRoutes = {
    grants: get<FileUploadGrantService>(FILES_TYPES.FileUploadGrants),
    redemption: get<FileUploadRedemption>(FILES_TYPES.FileUploadRedemption),
  };
  api.use(createFileUploadRouter(fileRoutes));
  // MCP, token and registration endpoints authenticate their callers themselves and parse their own bodies.
  const catalogue = get<McpToolCatalogue>(SAAS_SERVICE_TYPES.McpToolCatalogue);
  const directory = get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory);
  api.use(
    onlyUnder('/mcp', [
      createMcpRouter({
        catalogue,
        calls: new McpToolCallService(
          catalogue,
          get<OperationDispatcher>(SAAS_SERVICE_TYPES.OperationDispatcher),
          directory,
          logger,
        ),
        authenticator: get<ResourceServerAuthenticator>(SAAS_SERVICE_TYPES.ResourceServerAuthenticator),
        resourceServers,
        directory,
        roles: get<RoleHierarchyResolver>(SAAS_SERVICE_TYPES.RoleHierarchyResolver),
        rateLimits,
        burst: settings.burst,
        logger,
        issuer: oauthSettings.issuer,
        streams,
      }),
    ]),
  );
  api.use(
    onlyUnder('/a2a', [
      createA2aRouter({
        agents: a2a.agents,
        tasks: a2a.tasks,
        store: a2a.store,
        push: a2a.push,
        directory,
        coordination: get<CoordinationBackend>(SAAS_SERVICE_TYPES.Coordination),
        authenticator: get<ResourceServerAuthenticator>(SAAS_SERVICE_TYPES.ResourceServerAuthenticator),
        rateLimits,
        burst: settings.burst,
        logger,
        authorization: oauthSettings,
        streams,
      }),
    ]),
  );
  api.use(
    onlyUnder('/oauth/', [
      createTokenAndRegistrationRouter({
        tokens: get<TokenEndpointService>(SAAS_SERVICE_TYPES.TokenEndpointService),
        registration: container.get(RegistrationService),
        settings: oauthSettings,
        rateLimits,
        logger,
      }),
    ]),
  );
  for (const step of apiSteps) api.use(step);
  api.use(
    createAuthRouter({
      users: get<UsersService>(SAAS_SERVICE_TYPES.UsersService),
      organizations: get<OrganizationsService>(SAAS_SERVICE_TYPES.OrganizationsService),
      tokens: get<AccessTokenService>(SAAS_SERVICE_TYPES.AccessTokenService),
      rateLimits,
      loginThrottle: new LoginThrottle(
        rateLimits,
        get<IdentitySettings>(SAAS_SERVICE_TYPES.IdentitySettings).loginThrottle,
      ),
      stepUp: get<StepUpService>(SAAS_SERVICE_TYPES.StepUpService),
      ownership: get<EmailOwnershipService>(SAAS_SERVICE_TYPES.EmailOwnershipService),
      devices: new DeviceCookies(
        get<PrimarySecret>(SAAS_SERVICE_TYPES.PrimarySecret),
        new URL(get<PublicUrls>(SAAS_SERVICE_TYPES.PublicUrls).backend).protocol === 'https:',
      ),
    }),
  );
  api.use(createFileGrantRouter(fileRoutes));
  api.use(createAuthorizationRouter(get<AuthorizationService>(SAAS_SERVICE_TYPES.AuthorizationService)));
  api.use(
    createOrganizationsRouter({
      organizations: get<OrganizationsService>(SAAS_SERVICE_TYPES.OrganizationsService),
      users: get<UsersService>(SAAS_SERVICE_TYPES.UsersService),
      directory: get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory),
      roles: get<RoleHierarchyResolver>(SAAS_SERVICE_TYPES.RoleHierarchyResolver),
      tokens: get<AccessTokenService>(SAAS_SERVICE_TYPES.AccessTokenService),
    }),
  );
  api.use(
    createInvitationsRouter({
      invitations: get<InvitationsService>(SAAS_SERVICE_TYPES.InvitationsService),
      organizations: get<OrganizationsService>(SAAS_SERVICE_TYPES.OrganizationsService),
      tokens: get<AccessTokenService>(SAAS_SERVICE_TYPES.AccessTokenService),
      directory: get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory),
      roles: get<RoleHierarchyResolver>(SAAS_SERVICE_TYPES.RoleHierarchyResolver),
    }),
  );
  api.use(
    createAgentsRouter({
      conversations: get<ConversationService>(SAAS_SERVICE_TYPES.ConversationService),
      approvals: get<ApprovalService>(SAAS_SERVICE_TYPES.ApprovalService),
      logger,
      streams,
    }),
  );
  app.use(API_PREFIX, api);
  const frontend = settings.frontendDist ? createFrontendRouter(settings.frontendDist) : null;
  if (frontend) app.use(frontend);
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
