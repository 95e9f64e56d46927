import type { NextFunction, Request, Response } from 'express';
import type { CounterPolicy } from '../coordination/index.js';
import type { Authenticator } from '../identity/index.js';
import { rateLimited, type RateLimitService } from '../resources/index.js';
import { burstKeyOf, httpState } from '../routing/index.js';

/** Verifies the `Authorization` header (absent = anonymous) and records the principal for the routes. */
export function authenticationMiddleware(authenticator: Authenticator) {
  return async function authenticate(req: Request, res: Response, next: NextFunction): Promise<void> {
    httpState(res).principal = await authenticator.authenticate(req.get('authorization'));
    next();
  };
}

/**
 * The blanket per-principal burst throttle, on verified identity. It fails open by design (a broken counter
 * store admits the request and is logged); operation policies are separate and fail closed.
 */
export function burstThrottleMiddleware(rateLimits: RateLimitService, policy: CounterPolicy) {
  return async function throttle(req: Request, res: Response, next: NextFunction): Promise<void> {
    const decision = await rateLimits.chargeBurst(
      burstKeyOf(httpState(res).principal, () => req.ip),
      policy,
    );
    if (decision && !decision.allowed) return next(rateLimited(decision));
    next();
  };
}
