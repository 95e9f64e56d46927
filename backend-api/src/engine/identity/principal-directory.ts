import type { UserSnapshot } from './principal.types.js';

/**
 * Answers "who is this user now?" (status, authorization version, roles) for every request. Implementations
 * cache and are invalidated across replicas when a user changes. A failed read rejects: callers fail closed.
 */
export interface PrincipalDirectory {
  getUser(userId: string): Promise<UserSnapshot | null>;
  /**
   * The same answer when it is cached and fresh, synchronously; `undefined` when it would need a read. Lets the
   * per-request checks skip an asynchronous hop on the common path; implementations without a cache omit it.
   */
  peekUser?(userId: string): UserSnapshot | null | undefined;
  /** Drops cached state for a user here and on every other replica. */
  invalidate(userId: string): Promise<void>;
}
