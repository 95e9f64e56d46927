import { createHash, randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Clock } from '../container/clock.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { SqlDatabase } from '../persistence/sql-database.js';

/** How long a step-up proof may wait before it is used. */
export const REAUTH_PROOF_LIFETIME_SECONDS = 300;

/** A fresh proof that the person just re-entered a credential. */
export interface ReauthProof {
  reAuthToken: string;
  expiresIn: number;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Step-up proofs for sensitive operations (key rotation, ...): issued after a fresh password check, bound to
 * one user, short-lived and single-use. Only a hash is stored; consuming is one atomic statement, so two
 * concurrent uses cannot both succeed.
 */
@injectable()
export class StepUpService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** Issues a proof for a user whose credential was just verified. */
  async issue(userId: string): Promise<ReauthProof> {
    const reAuthToken = `ra_${randomBytes(32).toString('base64url')}`;
    const now = this.clock.now();
    await this.db.query('DELETE FROM wildo_reauth_proofs WHERE expires_at < $1', [now]);
    await this.db.query('INSERT INTO wildo_reauth_proofs (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
      hashOf(reAuthToken),
      userId,
      new Date(now.getTime() + REAUTH_PROOF_LIFETIME_SECONDS * 1000),
    ]);
    return { reAuthToken, expiresIn: REAUTH_PROOF_LIFETIME_SECONDS };
  }

  /** Uses a proof: true once for an unexpired proof of this user, false for anything else. */
  async consume(reAuthToken: string, userId: string): Promise<boolean> {
    if (!/^ra_[A-Za-z0-9_-]{43}$/.test(reAuthToken)) return false;
    const now = this.clock.now();
    const { rows } = await this.db.query<{ user_id: string }>(
      `UPDATE wildo_reauth_proofs SET used_at = $3
       WHERE token_hash = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > $3
       RETURNING user_id`,
      [hashOf(reAuthToken), userId, now],
    );
    return rows.length === 1;
  }
}
