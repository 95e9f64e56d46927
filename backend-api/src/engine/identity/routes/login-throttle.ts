import type { CounterDecision, CounterPolicy } from '../../coordination/index.js';
import { throttleSourceOf } from '../../net/index.js';
import { rateLimited, type RateLimitService } from '../../resources/index.js';
import { DEFAULT_LOGIN_THROTTLE, type LoginThrottlePolicy } from '../index.js';

/** A counter this attempt charged, and what a success gives back (the attempt, or the whole count). */
interface Reservation {
  key: string;
  policy: CounterPolicy;
  refundOnSuccess: number;
}

/**
 * Throttles password guessing without locking the owner out (OWASP's failure-counting design): only failures
 * count, per source and per (account, source), and a source over either budget is refused before its password
 * is checked. A guesser spread over many sources is bounded by the account-wide budget: past it, only a source
 * with no failure in its own window may try, so the owner at a fresh address still signs in, while each
 * attacking source gets at most one more guess per window. A success clears the (account, source) count.
 *
 * Each attempt reserves its failure before the password is checked (atomic on every replica, so parallel
 * guesses cannot slip past a budget) and gives the reservation back when it succeeds. The counters fail closed.
 */
export class LoginThrottle {
  constructor(
    private readonly rateLimits: RateLimitService,
    private readonly policy: LoginThrottlePolicy = DEFAULT_LOGIN_THROTTLE,
  ) {}

  /**
   * Runs `verify` for `account` (a normalized email) from the client address `ip` when the budgets admit it; a
   * `null` result is a failure and stays counted. Throws `RATE_LIMITED` (with the wait) when refused.
   *
   * @example
   * const user = await throttle.guard(normalizeEmail(email), req.ip, () => users.verifyCredentials(email, password));
   */
  async guard<T>(account: string, ip: string | undefined, verify: () => Promise<T | null>): Promise<T | null> {
    const source = throttleSourceOf(ip);
    const reservations = await this.reserve(account, source);
    let result: T | null;
    try {
      result = await verify();
    } catch (error) {
      // Not a failed guess (the check itself broke): it must not count against anyone.
      await this.giveBack(reservations, () => 1);
      throw error;
    }
    if (result !== null) await this.giveBack(reservations, (r) => r.refundOnSuccess);
    return result;
  }

  /** Charges this attempt as a failure in advance, or refuses it (giving back what it charged). */
  private async reserve(account: string, source: string): Promise<Reservation[]> {
    const { perSource, perAccountSource, perAccount } = this.policy;
    const reserved: Reservation[] = [];
    const take = async (key: string, policy: CounterPolicy, refundOnSuccess = 1): Promise<CounterDecision> => {
      const decision = await this.rateLimits.reserve(key, policy);
      if (decision.allowed) reserved.push({ key, policy, refundOnSuccess });
      return decision;
    };
    try {
      const bySource = await take(`login:source:${source}`, perSource);
      if (!bySource.allowed) throw rateLimited(bySource);
      // A success clears the pair's consecutive failures, not only this attempt.
      const byPair = await take(`login:pair:${source}:${account}`, perAccountSource, perAccountSource.points);
      if (!byPair.allowed) throw rateLimited(byPair);
      const byAccount = await take(`login:account:${account}`, perAccount);
      // Over the account-wide budget only a source without failures may try (this attempt is its one reserved charge).
      if (!byAccount.allowed && perSource.points - bySource.remaining > 1) {
        throw rateLimited({ ...byAccount, resetMs: Math.min(byAccount.resetMs, bySource.resetMs) });
      }
      return reserved;
    } catch (error) {
      await this.giveBack(reserved, () => 1);
      throw error;
    }
  }

  private async giveBack(
    reservations: readonly Reservation[],
    cost: (reservation: Reservation) => number,
  ): Promise<void> {
    await Promise.all(reservations.map((r) => this.rateLimits.refund(r.key, r.policy, cost(r))));
  }
}
