import { inject, injectable, multiInject, optional } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { AccessTokenService } from './access-token.service.js';
import type { PrincipalDirectory } from './principal-directory.js';
import type { AuthenticatedPrincipal, UserPrincipal, UserSnapshot } from './principal.types.js';

/** One way of proving identity in the `Authorization` header (Bearer token, API key, ...). */
export interface AuthenticationStrategy {
  readonly name: string;
  /** Whether this strategy handles this header value. */
  matches(authorization: string): boolean;
  /** Verifies the credential; throws UNAUTHENTICATED when it is not valid. */
  authenticate(authorization: string): Promise<AuthenticatedPrincipal>;
}

/** Checks a user's current state against a credential: active, and at the authorization version it carries. */
export function assertUserUsable(snapshot: UserSnapshot | null, principal: UserPrincipal): UserSnapshot {
  if (!snapshot || snapshot.status !== 'active') {
    throw new FrameworkError('UNAUTHENTICATED', 'This account cannot be used.', { reason: 'principal_denied' });
  }
  if (snapshot.authorizationVersion !== principal.authorizationVersion) {
    throw new FrameworkError('UNAUTHENTICATED', 'This token is no longer valid; sign in again.', {
      reason: 'credential_invalid',
    });
  }
  return snapshot;
}

/**
 * Checks a user principal against the directory (see {@link assertUserUsable}): synchronously when the directory
 * has the user cached, which is nearly every request, else after reading it.
 */
export function checkUserUsable(
  directory: PrincipalDirectory,
  principal: UserPrincipal,
): UserSnapshot | Promise<UserSnapshot> {
  const cached = directory.peekUser?.(principal.userId);
  if (cached !== undefined) return assertUserUsable(cached, principal);
  return readUserSnapshot(directory, principal.userId).then((snapshot) => assertUserUsable(snapshot, principal));
}

/** Reads a user for authorization; an unreadable directory refuses (fail closed). */
export async function readUserSnapshot(directory: PrincipalDirectory, userId: string): Promise<UserSnapshot | null> {
  try {
    return await directory.getUser(userId);
  } catch (cause) {
    throw new FrameworkError('SERVICE_UNAVAILABLE', 'Your identity could not be checked; try again shortly.', {
      reason: 'identity_not_evaluable',
      retryAfterSeconds: 1,
      cause,
    });
  }
}

/**
 * `Authorization: Bearer <access token>` for the REST API audience: a person's first-party token or a
 * machine client's client_credentials token. Delegated tokens name MCP/A2A audiences and are refused here.
 */
@injectable()
export class BearerAccessTokenStrategy implements AuthenticationStrategy {
  readonly name = 'bearer-access-token';

  constructor(
    @inject(SAAS_SERVICE_TYPES.AccessTokenService) private readonly tokens: AccessTokenService,
    @inject(SAAS_SERVICE_TYPES.PrincipalDirectory) private readonly directory: PrincipalDirectory,
  ) {}

  matches(authorization: string): boolean {
    return /^bearer /i.test(authorization);
  }

  async authenticate(authorization: string): Promise<AuthenticatedPrincipal> {
    const principal = await this.tokens.verifyAccessToken(authorization.slice(7).trim());
    // Machine tokens are signed snapshots: no lookup (the guide's contract); people are checked per request.
    if (principal.kind === 'user') {
      const usable = checkUserUsable(this.directory, principal);
      if (usable instanceof Promise) await usable;
    }
    return principal;
  }
}

/**
 * Resolves the `Authorization` header to a verified principal through the registered strategies.
 * No header means anonymous (null); a header no strategy accepts is refused, never treated as anonymous.
 */
@injectable()
export class Authenticator {
  constructor(
    @multiInject(SAAS_SERVICE_TYPES.AuthenticationStrategies)
    @optional()
    private readonly strategies: AuthenticationStrategy[] = [],
  ) {}

  /** The principal behind a header value, or null when there is none. */
  async authenticate(authorization: string | undefined): Promise<AuthenticatedPrincipal | null> {
    if (authorization === undefined || authorization.trim() === '') return null;
    const strategy = this.strategies.find((s) => s.matches(authorization));
    if (!strategy)
      throw new FrameworkError('UNAUTHENTICATED', 'The credential is not valid.', { reason: 'credential_invalid' });
    return strategy.authenticate(authorization);
  }
}
