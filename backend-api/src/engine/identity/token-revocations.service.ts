import { performance } from 'node:perf_hooks';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import type { CoordinationBackend, Unsubscribe } from '../coordination/index.js';
import { FrameworkError } from '../errors/index.js';
import type { IdentitySettings } from './identity-settings.js';
import type { AuthenticatedPrincipal } from './principal.types.js';
import type { Logger } from '../logging/index.js';
import type { SqlDatabase, SqlExecutor } from '../persistence/index.js';
import { RevocationIndex } from './token-revocation-index.js';

/** The pub/sub channel on which replicas announce a revocation (JSON: `subject`, `revokedAtMs`). */
export const TOKEN_REVOKED_CHANNEL = 'oauth.token-revoked';
/** Each replica re-reads the list this often: it bounds the effect of an announcement lost in transit. */
const REFRESH_INTERVAL_MS = 30_000;
/** Without a successful read for this long, the list is stale and the tokens it governs are refused. */
const STALE_AFTER_MS = 120_000;
/** Kept beyond the longest token lifetime, for clock skew between replicas. */
const RETENTION_MARGIN_MINUTES = 5;

const UPSERT = `INSERT INTO wildo_token_revocations (subject, revoked_at) VALUES ($1, $2)
ON CONFLICT (subject) DO UPDATE SET revoked_at = GREATEST(wildo_token_revocations.revoked_at, EXCLUDED.revoked_at)
RETURNING revoked_at`;

/** A revocation: the tokens of `subject` issued at or before `revokedAtMs` are refused. */
export interface TokenRevocation {
  subject: string;
  revokedAtMs: number;
}

const revoked = () =>
  new FrameworkError('UNAUTHENTICATED', 'The access token is invalid or expired.', { reason: 'credential_invalid' });
const unevaluable = () =>
  new FrameworkError('SERVICE_UNAVAILABLE', 'Your credential could not be checked; try again shortly.', {
    reason: 'identity_not_evaluable',
    retryAfterSeconds: 1,
  });

function parseAnnouncement(message: string): TokenRevocation | null {
  try {
    const value = JSON.parse(message) as Partial<TokenRevocation>;
    return typeof value.subject === 'string' && typeof value.revokedAtMs === 'number'
      ? { subject: value.subject, revokedAtMs: value.revokedAtMs }
      : null;
  } catch {
    return null;
  }
}

/**
 * Revoked OAuth clients and withdrawn consents, for tokens that are otherwise verified as signed snapshots.
 * Persisted (`wildo_token_revocations`, written in the transaction of the deletion it stems from), held in
 * memory on every replica (loaded at start, re-read periodically, kept current by announcements), and checked
 * on every use of a token with a few Map lookups. Stale or unreadable, it fails closed.
 */
@injectable()
export class TokenRevocations {
  private readonly index = new RevocationIndex();
  private readonly retentionMs: number;
  private syncedAt = Number.NEGATIVE_INFINITY;
  /** Whether a read succeeded recently enough; false until the first one (fail closed). */
  private fresh = false;
  private unsubscribe?: Unsubscribe;
  private timer?: NodeJS.Timeout;

  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.Coordination) private readonly coordination: CoordinationBackend,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.IdentitySettings) settings: IdentitySettings,
    @inject(SAAS_SERVICE_TYPES.Logger) private readonly logger: Logger,
  ) {
    // No access token outlives the configured lifetime (delegated ones are capped below it).
    this.retentionMs = (settings.accessTokenLifetimeMinutes + RETENTION_MARGIN_MINUTES) * 60_000;
  }

  /** Listens for announcements, then loads the list; a list that cannot be read stops the start. */
  async start(): Promise<void> {
    // Subscribed before the read, so a revocation committed meanwhile arrives one way or the other.
    this.unsubscribe = await this.coordination.subscribe(TOKEN_REVOKED_CHANNEL, (message) => {
      const revocation = parseAnnouncement(message);
      if (revocation) this.apply(revocation);
    });
    await this.refresh();
    this.timer = setInterval(() => void this.tick(), REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the periodic read and the announcements. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.unsubscribe?.();
  }

  /**
   * Refuses a client's token or a delegated token issued at or before a revocation of its client or of the
   * person's consent to it. First-party user tokens are governed by the user's authorization version instead.
   */
  assertNotRevoked(principal: AuthenticatedPrincipal, issuedAtMs: number): void {
    const clientId = principal.kind === 'machine' ? principal.clientId : principal.credential.authorizedParty;
    if (clientId === undefined) return;
    if (!this.fresh) throw unevaluable();
    if (issuedAtMs <= this.index.clientRevokedAt(clientId)) throw revoked();
    if (
      principal.kind === 'user' &&
      issuedAtMs <= this.index.grantRevokedAt(principal.userId, clientId, principal.credential.audience ?? '')
    )
      throw revoked();
  }

  /**
   * Records a revocation through `tx`, the transaction of the deletion it stems from; the returned function,
   * run once that committed, applies it here and announces it to every replica.
   */
  async revokeWithin(tx: SqlExecutor, subject: string): Promise<() => Promise<void>> {
    const { rows } = await tx.query<{ revoked_at: Date }>(UPSERT, [subject, this.clock.now()]);
    const revocation = { subject, revokedAtMs: new Date((rows[0] as { revoked_at: Date }).revoked_at).getTime() };
    return () => this.announce(revocation);
  }

  private async announce(revocation: TokenRevocation): Promise<void> {
    this.apply(revocation);
    try {
      await this.coordination.publish(TOKEN_REVOKED_CHANNEL, JSON.stringify(revocation));
    } catch (error) {
      // Stored already: the other replicas' next periodic read picks it up.
      this.logger.warn('could not announce a token revocation to other replicas', { error: String(error) });
    }
  }

  private apply({ subject, revokedAtMs }: TokenRevocation): void {
    if (!this.index.add(subject, revokedAtMs))
      this.logger.warn('ignored a token revocation of an unknown kind', { kind: subject.split(' ')[0] });
  }

  /** The periodic read; once none succeeded for a while, a lost announcement could go unnoticed: fail closed. */
  private async tick(): Promise<void> {
    try {
      await this.refresh();
    } catch (error) {
      this.logger.warn('could not re-read token revocations', { error: String(error) });
    }
    this.fresh = performance.now() - this.syncedAt <= STALE_AFTER_MS;
  }

  /** Reads every revocation a live token could still fall under; forgets (and deletes) the older ones. */
  private async refresh(): Promise<void> {
    const startedAt = performance.now();
    const horizon = new Date(this.clock.now().getTime() - this.retentionMs);
    const { rows } = await this.db.query<{ subject: string; revoked_at: Date }>(
      'SELECT subject, revoked_at FROM wildo_token_revocations WHERE revoked_at > $1',
      [horizon],
    );
    for (const row of rows) this.apply({ subject: row.subject, revokedAtMs: new Date(row.revoked_at).getTime() });
    this.index.prune(horizon.getTime());
    this.syncedAt = startedAt;
    this.fresh = true;
    // Housekeeping only: every replica may do it, and a failure changes nothing a token could notice.
    await this.db
      .query('DELETE FROM wildo_token_revocations WHERE revoked_at <= $1', [horizon])
      .catch((error: unknown) => {
        this.logger.warn('could not delete expired token revocations', { error: String(error) });
      });
  }
}
