import { ContainerModule } from 'inversify';
import {
  AccessTokenService,
  Authenticator,
  BearerAccessTokenStrategy,
  ConsumableTokenService,
  EmailOwnershipService,
  IdentityMailer,
  InvitationsService,
  OrganizationsService,
  PasswordHasher,
  RoleHierarchyResolver,
  SigningKeyService,
  SqlPrincipalDirectory,
  StepUpService,
  UsersService,
} from '../identity/index.js';
import {
  ExecutionContextCreator,
  OperationAdmission,
  OperationDispatcher,
  RateLimitService,
  ServicesRegistryHandler,
} from '../resources/index.js';
import { SAAS_SERVICE_TYPES as T } from '../container/index.js';

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
