import express, { type Express } from 'express';
import type { Container } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import type { CoordinationBackend, CounterPolicy } from '../coordination/index.js';
import {
  DeviceCookies,
  type AccessTokenService,
  type Authenticator,
  type EmailOwnershipService,
  type IdentitySettings,
  type InvitationsService,
  type OrganizationsService,
  type PrimarySecret,
  type PrincipalDirectory,
  type RoleHierarchyResolver,
  type SigningKeyService,
  type StepUpService,
  type UsersService,
} from '../identity/index.js';
import {
  createAuthRouter,
  createInvitationsRouter,
  createJwksRouter,
  createOrganizationsRouter,
  LoginThrottle,
} from '../identity/routes/index.js';
import type { Logger } from '../logging/index.js';
import { createOutboxRouter, type OutboxMailSender } from '../mail/index.js';
import type { PublicUrls } from '../public-urls/index.js';
import type {
  ExecutionContextCreator,
  OperationAdmission,
  OperationDispatcher,
  RateLimitService,
  ResourceDescriptions,
  ResourcesRegistry,
} from '../resources/index.js';
import { DEFAULT_EVENT_STREAM_SETTINGS, EventStreams, type EventStreamSettings } from '../routing/index.js';
import { A2aRuntime, createA2aRouter, createA2aWellKnownRouter } from '../a2a/index.js';
import { createAgentsRouter } from '../agents/index.js';
import { createApprovalsRouter, type OperationApprovals } from '../approvals/index.js';
import { createAuditRouter, type AuditTrail } from '../audit/index.js';
import type { ApprovalService } from '../agents/approvals/index.js';
import type { ConversationService } from '../agents/runtime/index.js';
import {
  createFileGrantRouter,
  createFileUploadRouter,
  FILES_TYPES,
  type FileUploadGrantService,
  type FileUploadRedemption,
} from '../files/index.js';
import {
  createMcpRouter,
  McpClientReplies,
  McpSessionCodec,
  McpToolCallService,
  RequestStateCodec,
  type McpToolCatalogue,
} from '../mcp/index.js';
import {
  createAuthorizationRouter,
  createDiscoveryRouter,
  createTokenAndRegistrationRouter,
  RegistrationService,
  type AuthorizationService,
  type OAuthSettings,
  type TokenEndpointService,
} from '../oauth/index.js';
import {
  createProtectedResourceMetadataRouter,
  type ResourceServerAuthenticator,
  type ResourceServerInstancesRegistryBackendService,
} from '../resource-servers/index.js';
import { accessLogMiddleware } from './access-log.middleware.js';
import { createFrontendRouter } from './frontend-assets.js';
import { authenticationMiddleware, burstThrottleMiddleware } from './authentication.middleware.js';
import { errorMiddleware, notFoundHandler } from './error.middleware.js';
import { createHealthRouter, type DatabaseHealth } from './health.routes.js';
import { ServingState } from './serving-state.js';
import { jsonBodyMiddleware } from './json-body.middleware.js';
import { requestContextMiddleware } from './request-context.middleware.js';
import { createResourceDescriptionsRouter } from './resource-descriptions.routes.js';
import { createResourceRouter } from './resource.routes.js';
import { onlyUnder } from './route-prefix.js';
import { storableUrlMiddleware } from './storable-url.middleware.js';
import { A2A_PATH, API_PREFIX, HEALTH_PATH, MCP_PATH } from '../urls/index.js';

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
export function createHttpApp(
  container: Container,
  settings: HttpSettings,
  serving: ServingState = new ServingState(),
): Express {
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
  serving.attachStreams(streams);
  app.use(serving.middleware);
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
  api.use(onlyUnder(HEALTH_PATH, [createHealthRouter(get<DatabaseHealth>(SAAS_SERVICE_TYPES.Database), serving)]));
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
    onlyUnder(MCP_PATH, [
      createMcpRouter({
        catalogue,
        calls: new McpToolCallService(
          catalogue,
          get<OperationDispatcher>(SAAS_SERVICE_TYPES.OperationDispatcher),
          directory,
          logger,
          get<OperationApprovals>(SAAS_SERVICE_TYPES.OperationApprovals),
          new RequestStateCodec(get<PrimarySecret>(SAAS_SERVICE_TYPES.PrimarySecret).derive('mcp-request-state'), () =>
            get<Clock>(SAAS_SERVICE_TYPES.Clock).now(),
          ),
        ),
        sessions: new McpSessionCodec(get<PrimarySecret>(SAAS_SERVICE_TYPES.PrimarySecret).derive('mcp-sessions')),
        replies: new McpClientReplies(get<CoordinationBackend>(SAAS_SERVICE_TYPES.Coordination)),
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
    onlyUnder(A2A_PATH, [
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
    createResourceDescriptionsRouter({
      descriptions: get<ResourceDescriptions>(SAAS_SERVICE_TYPES.ResourceDescriptions),
      judges: {
        contexts: get<ExecutionContextCreator>(SAAS_SERVICE_TYPES.ExecutionContextCreator),
        admission: get<OperationAdmission>(SAAS_SERVICE_TYPES.OperationAdmission),
        roles: get<RoleHierarchyResolver>(SAAS_SERVICE_TYPES.RoleHierarchyResolver),
      },
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
  api.use(createApprovalsRouter(get<OperationApprovals>(SAAS_SERVICE_TYPES.OperationApprovals)));
  api.use(
    createAuditRouter({
      audit: get<AuditTrail>(SAAS_SERVICE_TYPES.AuditTrail),
      directory: get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory),
      roles: get<RoleHierarchyResolver>(SAAS_SERVICE_TYPES.RoleHierarchyResolver),
    }),
  );
  app.use(API_PREFIX, api);
  const frontend = settings.frontendDist ? createFrontendRouter(settings.frontendDist) : null;
  if (frontend) app.use(frontend);
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
