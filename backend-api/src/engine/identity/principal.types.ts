import type { ExecutionContext_ExecutionType } from '@wildo/shared-lib';

/** How a principal proved who it is. */
export interface CredentialInfo {
  type: 'access_token' | 'api_key' | 'client_token' | 'delegated_token';
  /** Token id (`jti`), key id or client id: enough to audit, never the secret. */
  id: string;
  /** Audience the credential was issued for, when it has one. */
  audience?: string;
  /** The client a delegated token was issued to. */
  authorizedParty?: string;
}

/** A person signed in with a first-party or delegated token. Roles are resolved per request. */
export interface UserPrincipal {
  kind: 'user';
  userId: string;
  authorizationVersion: number;
  credential: CredentialInfo;
  /**
   * Set on a delegated token issued without a prompt (a trusted client of this organization skipped consent):
   * the token acts in this organization only; the person's other organizations answer not-found and
   * application- or user-scoped operations are refused.
   */
  organizationRestriction?: string;
}

/** An API key or OAuth client acting as itself; its roles are a snapshot taken at issuance. */
export interface MachinePrincipal {
  kind: 'machine';
  executionType:
    | ExecutionContext_ExecutionType.ORGANIZATION_MACHINE
    | ExecutionContext_ExecutionType.APPLICATION_MACHINE;
  clientId: string;
  organizationId?: string;
  roles: readonly string[];
  credential: CredentialInfo;
}

/** A verified caller. Anonymous callers have no principal. */
export type AuthenticatedPrincipal = UserPrincipal | MachinePrincipal;

/** What the engine knows about a user when authorizing: cached, invalidated when it changes. */
export interface UserSnapshot {
  id: string;
  status: 'active' | 'disabled';
  authorizationVersion: number;
  appRoles: readonly string[];
  /** Organization id → the user's role there. */
  memberships: ReadonlyMap<string, string>;
}
