import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import { looksLikeApiKey, type CredentialDirectory } from '../credentials/index.js';
import { FrameworkError } from '../errors/index.js';
import {
  assertUserUsable,
  readUserSnapshot,
  rememberDelegatedToken,
  type AccessTokenService,
  type AuthenticatedPrincipal,
  type PrincipalDirectory,
} from '../identity/index.js';

/**
 * Authentication at an MCP/A2A endpoint: a Bearer token whose audience is exactly this endpoint (a person's
 * delegated token or a machine client's token), or an API key. A token for any other audience is refused.
 */
@injectable()
export class ResourceServerAuthenticator {
  constructor(
    @inject(SAAS_SERVICE_TYPES.AccessTokenService) private readonly tokens: AccessTokenService,
    @inject(SAAS_SERVICE_TYPES.CredentialDirectory) private readonly credentials: CredentialDirectory,
    @inject(SAAS_SERVICE_TYPES.PrincipalDirectory) private readonly directory: PrincipalDirectory,
  ) {}

  /** The principal for `audience`, or null without a credential; throws UNAUTHENTICATED for a bad one. */
  async authenticate(authorization: string | undefined, audience: string): Promise<AuthenticatedPrincipal | null> {
    if (!authorization || authorization.trim() === '') return null;
    if (looksLikeApiKey(authorization)) return this.credentials.authenticateApiKey(authorization);
    if (!/^bearer /i.test(authorization))
      throw new FrameworkError('UNAUTHENTICATED', 'The credential is not valid.', { reason: 'credential_invalid' });
    const token = authorization.slice(7).trim();
    const principal = await this.tokens.verifyAccessToken(token, audience);
    if (principal.kind === 'user')
      assertUserUsable(await readUserSnapshot(this.directory, principal.userId), principal);
    rememberDelegatedToken(principal, token);
    return principal;
  }
}
