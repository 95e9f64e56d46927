import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { CoordinationBackend, CounterDecision, CounterPolicy } from '../coordination/index.js';
import { FrameworkError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { CompiledOperation } from './compiled-resource.types.js';
import { principalBucketKey, type ExecutionContext } from './execution-context.js';

/**
 * Charges rate-limit counters. An operation's declared policy fails closed (its storage being down refuses
 * the call); the blanket per-principal burst throttle fails open, as documented, and logs the failure.
 */
@injectable()
export class RateLimitService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Coordination) private readonly coordination: CoordinationBackend,
    @inject(SAAS_SERVICE_TYPES.Logger) private readonly logger: Logger,
  ) {}

  /** Charges the operation's own policy in the bucket of the call's surface; throws when refused. */
  async chargeOperation(operation: CompiledOperation, context: ExecutionContext): Promise<void> {
    const policy = operation.rateLimit;
    if (!policy) return;
    const key = `op:${context.surface}:${operation.servicePath}:${principalBucketKey(context, policy.keyBy)}`;
    await this.charge(key, { points: policy.points, durationMs: policy.durationSeconds * 1_000 });
  }

  /**
   * Charges the operation's `policies.rateLimit`: one bucket per caller (a person, or one API key or client) for the
   * operation, shared by every surface, on the coordination store (so it holds across replicas). Fails closed.
   */
  async chargePolicy(operation: CompiledOperation, context: ExecutionContext): Promise<void> {
    const policy = operation.policies?.rateLimit;
    if (!policy) return;
    const key = `policy:${operation.servicePath}:${principalBucketKey(context)}`;
    await this.charge(key, { points: policy.points, durationMs: policy.durationSeconds * 1_000 });
  }

  /** Charges a security policy (sign-ups, re-authentication, ...); refused or unavailable storage both refuse (fail closed). */
  async charge(key: string, policy: CounterPolicy): Promise<void> {
    const decision = await this.reserve(key, policy);
    if (!decision.allowed) throw rateLimited(decision);
  }

  /** Charges one point and returns the decision for the caller to act on; unavailable storage refuses (fail closed). */
  async reserve(key: string, policy: CounterPolicy): Promise<CounterDecision> {
    try {
      return await this.coordination.consume(key, policy);
    } catch (cause) {
      throw new FrameworkError(
        'SERVICE_UNAVAILABLE',
        'The request could not be admitted right now; try again shortly.',
        {
          retryAfterSeconds: 1,
          cause,
        },
      );
    }
  }

  /** Gives back points a reservation charged; a storage failure is logged (the count errs towards refusing). */
  async refund(key: string, policy: CounterPolicy, cost = 1): Promise<void> {
    try {
      await this.coordination.refund(key, policy, cost);
    } catch (error) {
      this.logger.warn('rate-limit refund failed; the counter keeps the charge until its window ends', {
        error: String(error),
      });
    }
  }

  /** Charges a burst bucket; returns null (admitting the request) when the counter store fails. */
  async chargeBurst(key: string, policy: CounterPolicy): Promise<CounterDecision | null> {
    try {
      return await this.coordination.consume(`burst:${key}`, policy);
    } catch (cause) {
      this.logger.warn('burst throttle storage failed; admitting the request', { error: String(cause) });
      return null;
    }
  }
}

/** The refusal for an exhausted window, with the wait before the next one. */
export function rateLimited(decision: CounterDecision): FrameworkError {
  return new FrameworkError('RATE_LIMITED', 'Too many requests; slow down.', {
    reason: 'rate_limit_exceeded',
    retryAfterSeconds: Math.max(1, Math.ceil(decision.resetMs / 1_000)),
  });
}
