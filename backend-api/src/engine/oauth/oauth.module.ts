import { ContainerModule } from 'inversify';
import type { ResourcesModule } from '../resources/index.js';
import { SAAS_SERVICE_TYPES as T } from '../container/index.js';
import { ResourceServerAuthenticator } from '../resource-servers/index.js';
import { AuthorizationCodeService } from './authorization-codes.service.js';
import { AuthorizationService } from './authorization.service.js';
import { consentGrantsImplementation } from './consent-grants.custom-impl.service.js';
import { consentGrantsResource } from './consent-grants.resource.js';
import { ConsentGrantsService } from './consent-grants.service.js';
import { ConsentRequestService } from './consent-requests.service.js';
import { OAuthClientDirectory } from './oauth-client-directory.service.js';
import { OAUTH_MIGRATIONS } from './oauth.migrations.js';
import { RegistrationService } from './registration.service.js';
import { TokenEndpointService } from './token-endpoint.service.js';
import { TokenRevocations } from '../identity/index.js';

/**
 * The OAuth 2.1 authorization server: remembered consents as a resource, codes, consent requests, token endpoint,
 * registration, and the revocations of clients and consents every token verification checks.
 */
export const oauthModule: ResourcesModule = {
  name: 'wildo-oauth',
  resources: [consentGrantsResource],
  customServiceImplementations: [consentGrantsImplementation],
  migrations: OAUTH_MIGRATIONS,
  containerModule: new ContainerModule(({ bind }) => {
    bind(T.OAuthClientDirectory).to(OAuthClientDirectory).inSingletonScope();
    bind(T.ConsentGrantsService).to(ConsentGrantsService).inSingletonScope();
    bind(T.AuthorizationCodeService).to(AuthorizationCodeService).inSingletonScope();
    bind(T.ConsentRequestService).to(ConsentRequestService).inSingletonScope();
    bind(T.AuthorizationService).to(AuthorizationService).inSingletonScope();
    bind(T.TokenEndpointService).to(TokenEndpointService).inSingletonScope();
    bind(T.TokenRevocations).to(TokenRevocations).inSingletonScope();
    bind(RegistrationService).toSelf().inSingletonScope();
    bind(T.ResourceServerAuthenticator).to(ResourceServerAuthenticator).inSingletonScope();
  }),
};
