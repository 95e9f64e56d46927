// Identity: principals, users, organizations and memberships, signed tokens and their revocation, roles, step-up.
export {
  assertUserUsable,
  type AuthenticationStrategy,
  Authenticator,
  BearerAccessTokenStrategy,
  checkUserUsable,
  readUserSnapshot,
} from './authenticator.service.js';
export { delegatedTokenOf, rememberDelegatedToken } from './delegated-token.js';
export type { PrincipalDirectory } from './principal-directory.js';
export type { AuthenticatedPrincipal, MachinePrincipal, UserPrincipal, UserSnapshot } from './principal.types.js';
export { RoleHierarchyResolver } from './role-hierarchy.service.js';
export { type PrimarySecret, resolvePrimarySecret } from './primary-secret.js';
export {
  AccessTokenService,
  type Jwt_MachineToken_CreationParameter,
  type MachineAccessTokenRequest,
  type MachineAccessTokenResponse,
} from './access-token.service.js';
export { ConsumableTokenService, type InspectedToken } from './consumable-tokens.service.js';
export { InvitationsService } from './invitations.service.js';
export { OrganizationsService } from './organizations.service.js';
export { PasswordHasher } from './password-hasher.service.js';
export { SIGNING_ALGORITHM, SigningKeyService } from './signing-keys.service.js';
export { SqlPrincipalDirectory } from './sql-principal-directory.service.js';
export { StepUpService } from './step-up.service.js';
export { normalizeEmail, UsersService } from './users.service.js';
export { TokenRevocations } from './token-revocations.service.js';
export { type IdentitySettings, type IdentitySettingsOverrides, identitySettingsFor } from './identity-settings.js';
export { IDENTITY_MIGRATIONS } from './identity.migrations.js';
export { clientRevocationSubject, grantRevocationSubject } from './token-revocation-index.js';
export {
  ChangeMemberRoleRequestSchema,
  CreateInvitationRequestSchema,
  CreateOrganizationRequestSchema,
  LoginRequestSchema,
  ReauthRequestSchema,
  SetApplicationRolesRequestSchema,
  SignupRequestSchema,
  VerifyEmailRequestSchema,
} from './identity.schema.js';
export { DEFAULT_LOGIN_THROTTLE, type LoginThrottlePolicy } from './login-throttle.policy.js';
export { DEVICE_COOKIE_LIFETIME_DAYS, DeviceCookies, type DeviceCookie } from './device-cookies.js';
export { EMAIL_LINK_LIFETIME_HOURS, EmailOwnershipService, type EmailLinkOutcome } from './email-ownership.service.js';
export { IdentityMailer } from './identity-mailer.js';
export {
  reachableMemberships,
  reachesBeyondOrganizations,
  restrictedToOrganization,
} from './organization-restriction.js';
