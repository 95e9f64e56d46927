import type { CounterPolicy } from '../coordination/index.js';

/** The failure budgets of sign-in, each a count of failed attempts per window (see `LoginThrottle` in `identity/routes`). */
export interface LoginThrottlePolicy {
  /** Failed sign-ins from one source (an IPv4 address or an IPv6 /64), whatever the accounts. */
  perSource: CounterPolicy;
  /** Consecutive failed sign-ins for one account from one source; a success clears them. */
  perAccountSource: CounterPolicy;
  /**
   * Failed sign-ins for one account from every device it never signed in on, together, in windows of growing
   * length: past the first the wait is short, past the next longer (the delays increase with the failures).
   */
  perAccount: readonly CounterPolicy[];
  /** Failed sign-ins from one device that signed in to the account before (its device cookie): its own budget. */
  perDevice: CounterPolicy;
}

/**
 * Defaults: 20 failures per source and 5 per (account, source) per 15 minutes; for the account from unknown devices,
 * 5 a minute, 10 a quarter hour and 30 an hour; 10 per known device per 15 minutes.
 */
export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicy = {
  perSource: { points: 20, durationMs: 15 * 60_000 },
  perAccountSource: { points: 5, durationMs: 15 * 60_000 },
  perAccount: [
    { points: 5, durationMs: 60_000 },
    { points: 10, durationMs: 15 * 60_000 },
    { points: 30, durationMs: 60 * 60_000 },
  ],
  perDevice: { points: 10, durationMs: 15 * 60_000 },
};
