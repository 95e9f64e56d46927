import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { InvalidationChannel, type CoordinationBackend } from '../coordination/index.js';
import type { Logger } from '../logging/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import type { PrincipalDirectory } from './principal-directory.js';
import type { UserSnapshot } from './principal.types.js';

/** The pub/sub channel on which replicas announce that a user changed. */
export const USER_CHANGED_CHANNEL = 'identity.user-changed';
/** How long a replica may serve a cached account without hearing of a change (the bound when an announcement is lost). */
export const PRINCIPAL_CACHE_TTL_MS = 60_000;
const CACHE_SIZE = 50_000;

interface Entry {
  snapshot: UserSnapshot | null;
  loadedAt: number;
}

/**
 * Reads users and memberships from SQL and caches them per user. A change invalidates the entry here and,
 * through pub/sub, on every replica; the TTL bounds staleness should a message be lost. A generation counter
 * keeps a read that raced with an invalidation from caching the old state.
 */
@injectable()
export class SqlPrincipalDirectory implements PrincipalDirectory {
  private readonly cache = new Map<string, Entry>();
  private readonly generations = new Map<string, number>();
  private readonly invalidation: InvalidationChannel;

  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.Coordination) coordination: CoordinationBackend,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.Logger) logger: Logger,
  ) {
    this.invalidation = new InvalidationChannel(coordination, USER_CHANGED_CHANNEL, logger, (userId) =>
      this.forget(userId),
    );
  }

  /** Subscribes to invalidations from other replicas. */
  start(): Promise<void> {
    return this.invalidation.start();
  }

  /** Stops listening. */
  stop(): Promise<void> {
    return this.invalidation.stop();
  }

  peekUser(userId: string): UserSnapshot | null | undefined {
    const hit = this.cache.get(userId);
    return hit && this.clock.now().getTime() - hit.loadedAt < PRINCIPAL_CACHE_TTL_MS ? hit.snapshot : undefined;
  }

  async getUser(userId: string): Promise<UserSnapshot | null> {
    const now = this.clock.now().getTime();
    const hit = this.cache.get(userId);
    if (hit && now - hit.loadedAt < PRINCIPAL_CACHE_TTL_MS) return hit.snapshot;
    const generation = this.generations.get(userId) ?? 0;
    const snapshot = await this.load(userId);
    if ((this.generations.get(userId) ?? 0) === generation) this.store(userId, { snapshot, loadedAt: now });
    return snapshot;
  }

  invalidate(userId: string): Promise<void> {
    return this.invalidation.announce(userId);
  }

  private forget(userId: string): void {
    this.cache.delete(userId);
    this.generations.set(userId, (this.generations.get(userId) ?? 0) + 1);
    if (this.generations.size > CACHE_SIZE) this.generations.clear();
  }

  private store(userId: string, entry: Entry): void {
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(userId, entry);
  }

  private async load(userId: string): Promise<UserSnapshot | null> {
    const users = await this.db.query<{
      id: string;
      status: 'active' | 'disabled';
      app_roles: string[];
      authorization_version: number;
    }>('SELECT id, status, app_roles, authorization_version FROM wildo_users WHERE id = $1', [userId]);
    const user = users.rows[0];
    if (!user) return null;
    const memberships = await this.db.query<{ organization_id: string; role: string }>(
      'SELECT organization_id, role FROM wildo_memberships WHERE user_id = $1',
      [userId],
    );
    return {
      id: user.id,
      status: user.status,
      authorizationVersion: user.authorization_version,
      appRoles: user.app_roles,
      memberships: new Map(memberships.rows.map((m) => [m.organization_id, m.role])),
    };
  }
}
