import type { UserSnapshot } from './principal.types.js';

/**
 * Answers "who is this user now?" (status, authorization version, roles) for every request. Implementations
 * cache and are invalidated across replicas when a user changes. A failed read rejects: callers fail closed.
 */
export interface PrincipalDirectory {
  getUser(userId: string): Promise<UserSnapshot | null>;
  /** Drops cached state for a user here and on every other replica. */
  invalidate(userId: string): Promise<void>;
}
