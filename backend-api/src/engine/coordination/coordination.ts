/**
 * A fixed-window counter policy: `points` per `durationMs`. Both are positive integers.
 * A counter is identified by its key *and* its policy, so one key charged under two policies
 * (say an operation limit and the burst throttle) keeps two independent counts.
 */
export interface CounterPolicy {
  points: number;
  durationMs: number;
}

/** The outcome of charging a counter. */
export interface CounterDecision {
  allowed: boolean;
  /**
   * Points left in the current window after this charge. A refusal charges nothing, so this is 0
   * when the window is spent, and may be above 0 when the cost asked for more than was left.
   */
  remaining: number;
  /** Milliseconds until the window resets (the full duration when no window is open yet). */
  resetMs: number;
}

/** A held lease. Renew before it expires; release when done. */
export interface Lease {
  readonly name: string;
  /**
   * Extends the lease to `ttlMs` from now; false when it was lost. A lease that expired is lost even
   * if nobody took it since: another holder may have had it in between.
   */
  renew(ttlMs: number): Promise<boolean>;
  /** Gives the lease up if still held by this holder; does nothing otherwise. */
  release(): Promise<void>;
}

/** Stops a subscription. Calling it again does nothing. */
export type Unsubscribe = () => Promise<void>;

/**
 * Primitives that coordinate replicas: rate-limit counters, pub/sub and leases. The in-process
 * implementation serves one process; the Redis one (`REDIS_URL`) serves many.
 * Storage failures reject (promptly, never by hanging); callers decide whether to fail open (burst
 * throttle) or closed. Invalid arguments (a non-positive or fractional policy, cost or ttl) reject
 * with a `RangeError`; every operation rejects once `close()` was called.
 */
export interface CoordinationBackend {
  readonly kind: 'in-process' | 'redis';
  /**
   * Charges `cost` points (default 1) to `key` under `policy`. A window opens at the first admitted
   * charge and lasts `policy.durationMs`; a charge that would exceed `points` is refused and charges
   * nothing.
   */
  consume(key: string, policy: CounterPolicy, cost?: number): Promise<CounterDecision>;
  /**
   * Gives back up to `cost` points (default 1) charged to `key` under `policy` in its current window, as when a
   * charged attempt turns out not to count (a sign-in that succeeded). Never below zero; a window emptied this
   * way is closed (the next charge opens a new one); no window open means nothing to give back.
   */
  refund(key: string, policy: CounterPolicy, cost?: number): Promise<void>;
  /** Sends `message` to every current subscriber of `channel`, on every replica. */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Delivers every message published on `channel` after this resolves to `handler`, asynchronously
   * and in publish order. A handler that throws is logged and does not affect other handlers.
   */
  subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe>;
  /** Takes the lease for `ttlMs` if free (or expired); `null` when another holder has it. */
  acquireLease(name: string, ttlMs: number): Promise<Lease | null>;
  /** Releases connections and timers; later calls reject. Leases held are left to expire. */
  close(): Promise<void>;
}
