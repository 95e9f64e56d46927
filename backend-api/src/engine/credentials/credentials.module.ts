import { ContainerModule } from 'inversify';
import type { ResourcesModule } from '../resources/index.js';
import { SAAS_SERVICE_TYPES as T } from '../container/index.js';
import { ApiKeyAuthenticationStrategy } from './api-key.strategy.js';
import { buildApiKeyImplementation } from './api-keys.custom-impl.service.js';
import { applicationApiKeysResource, organizationApiKeysResource } from './api-keys.resource.js';
import { CredentialDirectory } from './credential-directory.service.js';
import { CredentialSecrets } from './credential-secrets.service.js';
import { CREDENTIAL_RESOURCE_TYPES } from './credentials.resource-types.js';
import { buildOAuthClientImplementation } from './oauth-clients.custom-impl.service.js';
import { applicationOAuthClientsResource, organizationOAuthClientsResource } from './oauth-clients.resource.js';

/**
 * The engine's credentials: organization and application API keys and OAuth clients as resources (same
 * dispatch path as any other), the raw-key authentication strategy and the credential directory.
 */
export const credentialsModule: ResourcesModule = {
  name: 'wildo-credentials',
  resources: [
    organizationApiKeysResource,
    applicationApiKeysResource,
    organizationOAuthClientsResource,
    applicationOAuthClientsResource,
  ],
  customServiceImplementations: [
    buildApiKeyImplementation(CREDENTIAL_RESOURCE_TYPES.ORGANIZATION_API_KEYS, 'ORGANIZATION'),
    buildApiKeyImplementation(CREDENTIAL_RESOURCE_TYPES.APPLICATION_API_KEYS, 'APPLICATION'),
    buildOAuthClientImplementation(CREDENTIAL_RESOURCE_TYPES.ORGANIZATION_OAUTH_CLIENTS, true),
    buildOAuthClientImplementation(CREDENTIAL_RESOURCE_TYPES.APPLICATION_OAUTH_CLIENTS, false),
  ],
  containerModule: new ContainerModule(({ bind }) => {
    bind(T.CredentialSecrets).to(CredentialSecrets).inSingletonScope();
    bind(T.CredentialDirectory).to(CredentialDirectory).inSingletonScope();
    bind(T.AuthenticationStrategies).to(ApiKeyAuthenticationStrategy).inSingletonScope();
  }),
};
