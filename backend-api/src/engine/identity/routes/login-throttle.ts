import type { CounterDecision, CounterPolicy } from '../../coordination/index.js';
import { throttleSourceOf } from '../../net/index.js';
import { rateLimited, type RateLimitService } from '../../resources/index.js';
import { DEFAULT_LOGIN_THROTTLE, type LoginThrottlePolicy } from '../index.js';

/** Where a sign-in comes from: the client address, and the device id of a genuine device cookie for the account. */
export interface LoginAttemptOrigin {
  ip: string | undefined;
  device: string | undefined;
}

/** A counter this attempt charged, and what a success gives back (the attempt, or the whole count). */
interface Reservation {
  key: string;
  policy: CounterPolicy;
  refundOnSuccess: number;
}

/**
 * Throttles password guessing without reopening lockout abuse (OWASP's device-cookie design). Only failures count.
 * A device that signed in to the account before (a genuine device cookie) is judged by its own budget alone, so
 * guesses from anywhere else never keep the owner out of it. Every other attempt is judged per source, per
 * (account, source), and by the account's shared budget for unknown devices, whose windows grow (a minute, a quarter
 * hour, an hour): a guesser rotating through many addresses is slowed, then refused, while the owner's known devices
 * still get in at once. A known device that spends its own budget is treated as unknown.
 *
 * Each attempt reserves its failure before the password is checked (atomic on every replica: the counters live in the
 * coordination store, Redis across replicas) and gives the reservation back when it succeeds. The counters fail closed.
 */
export class LoginThrottle {
  constructor(
    private readonly rateLimits: RateLimitService,
    private readonly policy: LoginThrottlePolicy = DEFAULT_LOGIN_THROTTLE,
  ) {}

  /**
   * Runs `verify` for `account` (a normalized email) from `origin` when the budgets admit it; a `null` result is a
   * failure and stays counted. Throws `RATE_LIMITED` (with the wait) when refused.
   *
   * @example
   * const user = await throttle.guard(account, { ip: req.ip, device }, () => users.verifyCredentials(email, password));
   */
  async guard<T>(account: string, origin: LoginAttemptOrigin, verify: () => Promise<T | null>): Promise<T | null> {
    const reservations =
      (origin.device ? await this.reserveKnownDevice(origin.device) : undefined) ??
      (await this.reserveUnknownDevice(account, throttleSourceOf(origin.ip)));
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

  /** The known device's own budget, or undefined when it is spent (the device is then judged as unknown). */
  private async reserveKnownDevice(device: string): Promise<Reservation[] | undefined> {
    const key = `login:device:${device}`;
    const decision = await this.rateLimits.reserve(key, this.policy.perDevice);
    // A success clears the device's failures, as it clears a pair's.
    return decision.allowed
      ? [{ key, policy: this.policy.perDevice, refundOnSuccess: this.policy.perDevice.points }]
      : undefined;
  }

  /** Charges this attempt as a failure in advance to every budget of an unknown device, or refuses it. */
  private async reserveUnknownDevice(account: string, source: string): Promise<Reservation[]> {
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
      // Every window of the account is asked: a refusal names the longest wait among those spent.
      const refusals: CounterDecision[] = [];
      for (const window of perAccount) {
        const decision = await take(`login:account:${account}`, window);
        if (!decision.allowed) refusals.push(decision);
      }
      const longest = refusals.reduce<CounterDecision | undefined>(
        (found, decision) => (found && found.resetMs >= decision.resetMs ? found : decision),
        undefined,
      );
      if (longest) throw rateLimited(longest);
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
