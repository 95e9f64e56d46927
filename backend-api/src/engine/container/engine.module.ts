import { ContainerModule } from 'inversify';
import { AccessTokenService } from '../identity/access-token.service.js';
import { Authenticator, BearerAccessTokenStrategy } from '../identity/authenticator.service.js';
import { ConsumableTokenService } from '../identity/consumable-tokens.service.js';
import { EmailOwnershipService } from '../identity/email-ownership.service.js';
import { IdentityMailer } from '../identity/identity-mailer.js';
import { InvitationsService } from '../identity/invitations.service.js';
import { OrganizationsService } from '../identity/organizations.service.js';
import { PasswordHasher } from '../identity/password-hasher.service.js';
import { SigningKeyService } from '../identity/signing-keys.service.js';
import { SqlPrincipalDirectory } from '../identity/sql-principal-directory.service.js';
import { StepUpService } from '../identity/step-up.service.js';
import { UsersService } from '../identity/users.service.js';
import { ExecutionContextCreator } from '../resources/execution-context-creator.service.js';
import { OperationAdmission } from '../resources/operation-admission.service.js';
import { OperationDispatcher } from '../resources/operation-dispatcher.service.js';
import { RateLimitService } from '../resources/rate-limit.service.js';
import { RoleHierarchyResolver } from '../resources/role-hierarchy.service.js';
import { ServicesRegistryHandler } from '../resources/services-registry-handler.service.js';
import { SAAS_SERVICE_TYPES as T } from './saas-service-types.tokens.js';

/**
 * The engine's own services (dispatch and identity), all singletons. Platform values (database, store,
 * coordination, logger, clock, settings) are bound as constants by {@link createWildoBackend}.
 */
export const engineContainerModule = new ContainerModule(({ bind }) => {
  bind(T.RoleHierarchyResolver).toConstantValue(new RoleHierarchyResolver());
  bind(T.RateLimitService).to(RateLimitService).inSingletonScope();
  bind(T.OperationAdmission).to(OperationAdmission).inSingletonScope();
  bind(T.ExecutionContextCreator).to(ExecutionContextCreator).inSingletonScope();
  bind(T.ServicesRegistryHandler).to(ServicesRegistryHandler).inSingletonScope();
  bind(T.OperationDispatcher).to(OperationDispatcher).inSingletonScope();

  bind(T.PasswordHasher).to(PasswordHasher).inSingletonScope();
  bind(T.SigningKeyService).to(SigningKeyService).inSingletonScope();
  bind(T.AccessTokenService).to(AccessTokenService).inSingletonScope();
  bind(T.PrincipalDirectory).to(SqlPrincipalDirectory).inSingletonScope();
  bind(T.ConsumableTokenService).to(ConsumableTokenService).inSingletonScope();
  bind(T.StepUpService).to(StepUpService).inSingletonScope();
  bind(T.UsersService).to(UsersService).inSingletonScope();
  bind(T.EmailOwnershipService).to(EmailOwnershipService).inSingletonScope();
  bind(T.IdentityMailer).to(IdentityMailer).inSingletonScope();
  bind(T.OrganizationsService).to(OrganizationsService).inSingletonScope();
  bind(T.InvitationsService).to(InvitationsService).inSingletonScope();
  bind(T.AuthenticationStrategies).to(BearerAccessTokenStrategy).inSingletonScope();
  bind(T.Authenticator).to(Authenticator).inSingletonScope();
});
