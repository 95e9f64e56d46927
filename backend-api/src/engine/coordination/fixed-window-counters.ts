import { assertCounterPolicy } from './coordination-arguments.js';
import type { CounterDecision, CounterPolicy } from './coordination.js';

/** A source of milliseconds; only differences matter, so a monotonic clock is best. */
export type Clock = () => number;

/** The clock used when none is injected: monotonic, so a wall-clock jump cannot reopen a window. */
export const monotonicClock: Clock = () => performance.now();

interface Window {
  used: number;
  resetAt: number;
}

/** The windows of one policy, keyed by counter key. */
interface PolicyWindows {
  readonly points: number;
  readonly durationMs: number;
  readonly windows: Map<string, Window>;
}

/**
 * Exact fixed-window counters held in memory, one window map per distinct policy.
 *
 * @example
 * const counters = new FixedWindowCounters();
 * counters.consume('user:1', { points: 10, durationMs: 1000 }, 1); // { allowed: true, remaining: 9, ... }
 */
export class FixedWindowCounters {
  private readonly byPolicyId = new Map<string, PolicyWindows>();
  // Policies are usually long-lived declaration objects: an identity hit skips building the id string.
  private readonly byPolicyObject = new WeakMap<CounterPolicy, PolicyWindows>();

  constructor(private readonly now: Clock = monotonicClock) {}

  /** Charges `cost` to `key`; a refused charge changes nothing. */
  consume(key: string, policy: CounterPolicy, cost: number): CounterDecision {
    const { points, durationMs, windows } = this.windowsOf(policy);
    const now = this.now();
    const window = windows.get(key);
    const open = window !== undefined && window.resetAt > now;
    const used = open ? window.used : 0;
    const resetMs = open ? Math.ceil(window.resetAt - now) : durationMs;
    if (used + cost > points) return { allowed: false, remaining: points - used, resetMs };
    if (open) window.used += cost;
    else if (window !== undefined) this.reopen(window, cost, now + durationMs);
    else windows.set(key, { used: cost, resetAt: now + durationMs });
    return { allowed: true, remaining: points - used - cost, resetMs };
  }

  /** Gives back up to `cost` points of the open window of `key`; an emptied window is closed. */
  refund(key: string, policy: CounterPolicy, cost: number): void {
    const { windows } = this.windowsOf(policy);
    const window = windows.get(key);
    if (window === undefined || window.resetAt <= this.now()) return;
    window.used -= cost;
    if (window.used <= 0) windows.delete(key);
  }

  /** How many windows are held (ended ones included until the next sweep). */
  get size(): number {
    let total = 0;
    for (const { windows } of this.byPolicyId.values()) total += windows.size;
    return total;
  }

  /** Forgets windows that have ended, so idle keys do not accumulate. */
  sweep(): void {
    const now = this.now();
    for (const { windows } of this.byPolicyId.values()) {
      for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
    }
  }

  /** Forgets everything. */
  clear(): void {
    for (const { windows } of this.byPolicyId.values()) windows.clear();
  }

  private reopen(window: Window, cost: number, resetAt: number): void {
    // Reusing the object keeps a steady caller allocation-free.
    window.used = cost;
    window.resetAt = resetAt;
  }

  private windowsOf(policy: CounterPolicy): PolicyWindows {
    const cached = this.byPolicyObject.get(policy);
    // A policy object mutated after first use must not keep counting under its old shape.
    if (cached !== undefined && cached.points === policy.points && cached.durationMs === policy.durationMs)
      return cached;
    assertCounterPolicy(policy);
    const id = `${policy.points}/${policy.durationMs}`;
    let entry = this.byPolicyId.get(id);
    if (entry === undefined) {
      entry = { points: policy.points, durationMs: policy.durationMs, windows: new Map() };
      this.byPolicyId.set(id, entry);
    }
    this.byPolicyObject.set(policy, entry);
    return entry;
  }
}
