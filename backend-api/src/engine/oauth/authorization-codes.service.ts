import { createHash } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import { InvalidGrantError } from './oauth.errors.js';
import type { OAuthSettings } from './oauth-settings.js';
import { hashOpaqueToken, mintOpaqueToken } from './single-use-tokens.js';

/** What an authorization code stands for. */
export interface AuthorizationGrant {
  clientId: string;
  userId: string;
  authorizationVersion: number;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scopes: string[];
  nonce?: string;
  /** Set when the person was not prompted (trusted client): the token will act in this organization only. */
  organizationRestriction?: string;
}

/** What the token request presents with the code. */
export interface CodeExchange {
  code: string;
  clientId: string;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
}

const CODE_PREFIX = 'wac_';

/** PKCE S256 (RFC 7636): BASE64URL(SHA256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/**
 * Authorization codes: short-lived, single-use (consumed by one atomic statement, so a replay or a race
 * finds it used), bound to the client, the exact redirect URI, the PKCE challenge and the resource.
 */
@injectable()
export class AuthorizationCodeService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.OAuthSettings) private readonly settings: OAuthSettings,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** Issues a code for an approved request. */
  async issue(grant: AuthorizationGrant): Promise<string> {
    const { token, hash } = mintOpaqueToken(CODE_PREFIX);
    const now = this.clock.now();
    await this.db.query('DELETE FROM wildo_oauth_authorization_codes WHERE expires_at < $1', [
      new Date(now.getTime() - 3_600_000),
    ]);
    await this.db.query(
      'INSERT INTO wildo_oauth_authorization_codes (code_hash, client_id, user_id, grant_data, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [
        hash,
        grant.clientId,
        grant.userId,
        JSON.stringify(grant),
        new Date(now.getTime() + this.settings.authorizationCodeLifetimeSeconds * 1000),
      ],
    );
    return token;
  }

  /** Consumes a code and checks it against the client, redirect URI and PKCE verifier; throws `invalid_grant`. */
  async exchangeAuthorizationCode(exchange: CodeExchange): Promise<AuthorizationGrant> {
    const now = this.clock.now();
    const { rows } = await this.db.query<{ grant_data: AuthorizationGrant; expires_at: Date | string }>(
      `UPDATE wildo_oauth_authorization_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL
       RETURNING grant_data, expires_at`,
      [hashOpaqueToken(exchange.code), now],
    );
    const row = rows[0];
    if (!row) throw new InvalidGrantError('The authorization code is invalid, expired or already used.');
    if (new Date(row.expires_at).getTime() <= now.getTime())
      throw new InvalidGrantError('The authorization code is invalid, expired or already used.');
    const grant = row.grant_data;
    if (grant.clientId !== exchange.clientId)
      throw new InvalidGrantError('The authorization code was issued to another client.');
    if (exchange.redirectUri !== grant.redirectUri)
      throw new InvalidGrantError('The redirect_uri does not match the authorization request.');
    if (
      !exchange.codeVerifier ||
      !/^[A-Za-z0-9._~-]{43,128}$/.test(exchange.codeVerifier) ||
      s256(exchange.codeVerifier) !== grant.codeChallenge
    ) {
      throw new InvalidGrantError('The PKCE code_verifier does not match the code_challenge.');
    }
    return grant;
  }
}
