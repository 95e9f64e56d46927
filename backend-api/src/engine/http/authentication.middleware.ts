import type { NextFunction, Request, Response } from 'express';
import type { CounterPolicy } from '../coordination/coordination.js';
import type { Authenticator } from '../identity/authenticator.service.js';
import type { AuthenticatedPrincipal } from '../identity/principal.types.js';
import { rateLimited, type RateLimitService } from '../resources/rate-limit.service.js';
import { httpState } from '../routing/http-state.js';

/** Verifies the `Authorization` header (absent = anonymous) and records the principal for the routes. */
export function authenticationMiddleware(authenticator: Authenticator) {
  return async function authenticate(req: Request, res: Response, next: NextFunction): Promise<void> {
    httpState(res).principal = await authenticator.authenticate(req.get('authorization'));
    next();
  };
}

/** The bucket of the blanket throttle: users alone, organization machines share their organization's. */
export function burstKeyOf(principal: AuthenticatedPrincipal | null, ip: () => string | undefined): string {
  // The client address is resolved only for anonymous callers (trust-proxy parsing costs on every request).
  if (!principal) return `ip:${ip() ?? 'unknown'}`;
  if (principal.kind === 'user') return `user:${principal.userId}`;
  return principal.organizationId ? `org:${principal.organizationId}` : `client:${principal.clientId}`;
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
