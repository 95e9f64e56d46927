/** A fixed-window counter policy: `points` per `durationMs`. */
export interface CounterPolicy {
  points: number;
  durationMs: number;
}

/** The outcome of charging a counter. */
export interface CounterDecision {
  allowed: boolean;
  /** Points left in the current window (0 when refused). */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** A held lease. Renew before it expires; release when done. */
export interface Lease {
  readonly name: string;
  /** Extends the lease; false when it was lost (expired and taken by someone else). */
  renew(ttlMs: number): Promise<boolean>;
  /** Gives the lease up if still held by this holder. */
  release(): Promise<void>;
}

/** Stops a subscription. */
export type Unsubscribe = () => Promise<void>;

/**
 * Primitives that coordinate replicas: rate-limit counters, pub/sub and leases. The in-process
 * implementation serves one process; the Redis one (`REDIS_URL`) serves many.
 * Storage failures reject; callers decide whether to fail open (burst throttle) or closed.
 */
export interface CoordinationBackend {
  readonly kind: 'in-process' | 'redis';
  /** Charges `cost` points to `key` under `policy`. */
  consume(key: string, policy: CounterPolicy, cost?: number): Promise<CounterDecision>;
  publish(channel: string, message: string): Promise<void>;
  /** Delivers every later message on `channel` to `handler`, in publish order. */
  subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe>;
  /** Takes the lease if free; `null` when another holder has it. */
  acquireLease(name: string, ttlMs: number): Promise<Lease | null>;
  close(): Promise<void>;
}
