import type { Logger } from '../logging/index.js';
import { ChannelHandlers, type ChannelSubscription } from './channel-handlers.js';
import { assertCost, assertTtl, closedCoordinationError } from './coordination-arguments.js';
import type { CoordinationBackend, CounterDecision, CounterPolicy, Lease, Unsubscribe } from './coordination.js';
import { FixedWindowCounters, monotonicClock, type Clock } from './fixed-window-counters.js';
import { HeldLease, type LeaseStore } from './held-lease.js';
import { LeaseTable } from './lease-table.js';

/** Options of {@link InProcessCoordination}. */
export interface InProcessCoordinationOptions {
  logger: Logger;
  /** Milliseconds source for windows and lease expiry; tests inject a fake. Default: monotonic. */
  clock?: Clock;
  /** How often ended windows and expired leases are forgotten. Default: 60 000 ms. */
  sweepIntervalMs?: number;
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/**
 * Coordination for a single process: exact fixed-window counters, pub/sub and leases in memory.
 * Nothing here keeps the process alive; `close()` stops the sweep timer.
 *
 * @example
 * const coordination = new InProcessCoordination({ logger });
 * const decision = await coordination.consume('principal:42', { points: 100, durationMs: 1000 });
 */
export class InProcessCoordination implements CoordinationBackend, LeaseStore {
  readonly kind = 'in-process' as const;
  private readonly counters: FixedWindowCounters;
  private readonly leases: LeaseTable;
  private readonly handlers: ChannelHandlers;
  private readonly sweepTimer: NodeJS.Timeout;
  private closed = false;

  constructor(options: InProcessCoordinationOptions) {
    const clock = options.clock ?? monotonicClock;
    this.counters = new FixedWindowCounters(clock);
    this.leases = new LeaseTable(clock);
    this.handlers = new ChannelHandlers(options.logger);
    this.sweepTimer = setInterval(() => this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  /** Charges `cost` points to `key` under `policy`. */
  async consume(key: string, policy: CounterPolicy, cost = 1): Promise<CounterDecision> {
    this.assertOpen();
    assertCost(cost);
    return this.counters.consume(key, policy, cost);
  }

  /** Gives back up to `cost` points of `key`'s open window under `policy`. */
  async refund(key: string, policy: CounterPolicy, cost = 1): Promise<void> {
    this.assertOpen();
    assertCost(cost);
    this.counters.refund(key, policy, cost);
  }

  /** Queues `message` for the handlers subscribed to `channel` now. */
  async publish(channel: string, message: string): Promise<void> {
    this.assertOpen();
    const subscriptions = this.handlers.current(channel);
    if (subscriptions.length === 0) return;
    // setImmediate runs callbacks in the order they were queued (publish order) and, unlike a
    // microtask, lets I/O through when handlers publish in turn.
    setImmediate(() => this.deliver(subscriptions, message));
  }

  /** Delivers later messages on `channel` to `handler`. */
  async subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe> {
    this.assertOpen();
    const { subscription } = this.handlers.add(channel, handler);
    return async () => {
      this.handlers.remove(subscription);
    };
  }

  /** Takes the lease `name` when free or expired. */
  async acquireLease(name: string, ttlMs: number): Promise<Lease | null> {
    this.assertOpen();
    assertTtl(ttlMs);
    const token = this.leases.acquire(name, ttlMs);
    return token === null ? null : new HeldLease(name, token, this);
  }

  /** @internal Compare-and-renew for {@link HeldLease}. */
  async renewLease(name: string, token: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    return this.leases.renew(name, token, ttlMs);
  }

  /** @internal Compare-and-release for {@link HeldLease}. */
  async releaseLease(name: string, token: string): Promise<void> {
    this.assertOpen();
    this.leases.release(name, token);
  }

  /** Stops the sweep timer and drops all state; queued deliveries are discarded. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    this.handlers.clear();
    this.counters.clear();
    this.leases.clear();
  }

  private deliver(subscriptions: readonly ChannelSubscription[], message: string): void {
    if (!this.closed) this.handlers.deliver(subscriptions, message);
  }

  private sweep(): void {
    this.counters.sweep();
    this.leases.sweep();
  }

  private assertOpen(): void {
    if (this.closed) throw closedCoordinationError();
  }
}
