import type { CounterPolicy } from '../coordination/index.js';

/** The failure budgets of sign-in, each a count of failed attempts per window (see `LoginThrottle` in `identity/routes`). */
export interface LoginThrottlePolicy {
  /** Failed sign-ins from one source (an IPv4 address or an IPv6 /64), whatever the accounts. */
  perSource: CounterPolicy;
  /** Consecutive failed sign-ins for one account from one source; a success clears them. */
  perAccountSource: CounterPolicy;
  /** Failed sign-ins for one account from every source together: the slower, larger bound on a distributed attack. */
  perAccount: CounterPolicy;
}

/** Defaults: 20 failures per source and 5 per (account, source) per 15 minutes; 100 per account per hour. */
export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicy = {
  perSource: { points: 20, durationMs: 15 * 60_000 },
  perAccountSource: { points: 5, durationMs: 15 * 60_000 },
  perAccount: { points: 100, durationMs: 60 * 60_000 },
};
