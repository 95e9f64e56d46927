import { inject, injectable } from 'inversify';
import type { Clock } from '../container/clock.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import type { OAuthSettings } from './oauth-settings.js';
import { hashOpaqueToken, mintOpaqueToken } from './single-use-tokens.js';

/** A validated authorization request waiting for the person's decision. */
export interface PendingAuthorization {
  clientId: string;
  clientName: string;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  resource: string;
  scopes: string[];
  nonce?: string;
}

const CONSENT_PREFIX = 'wcr_';

/**
 * Consent-request tokens: the backend keeps the validated request; the consent page only carries an opaque,
 * single-use token bound to the person, so a decision cannot change the client, destination or scopes.
 */
@injectable()
export class ConsentRequestService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.OAuthSettings) private readonly settings: OAuthSettings,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** Stores a pending request for `userId`; returns its token and lifetime. */
  async create(userId: string, request: PendingAuthorization): Promise<{ token: string; expiresIn: number }> {
    const { token, hash } = mintOpaqueToken(CONSENT_PREFIX);
    const now = this.clock.now();
    const lifetime = this.settings.consentRequestLifetimeSeconds;
    await this.db.query('DELETE FROM wildo_oauth_consent_requests WHERE expires_at < $1', [new Date(now.getTime() - 3_600_000)]);
    await this.db.query('INSERT INTO wildo_oauth_consent_requests (token_hash, user_id, request_data, expires_at) VALUES ($1, $2, $3, $4)', [
      hash,
      userId,
      JSON.stringify(request),
      new Date(now.getTime() + lifetime * 1000),
    ]);
    return { token, expiresIn: lifetime };
  }

  /** Uses a token once, for the person it was issued to; null when unknown, used, expired or someone else's. */
  async consume(token: string, userId: string): Promise<PendingAuthorization | null> {
    const now = this.clock.now();
    const { rows } = await this.db.query<{ request_data: PendingAuthorization }>(
      `UPDATE wildo_oauth_consent_requests SET used_at = $3
       WHERE token_hash = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > $3 RETURNING request_data`,
      [hashOpaqueToken(token), userId, now],
    );
    return rows[0]?.request_data ?? null;
  }
}
