import type { AuthenticatedPrincipal } from '../identity/index.js';

/** The bucket of the blanket throttle: users alone, organization machines share their organization's. */
export function burstKeyOf(principal: AuthenticatedPrincipal | null, ip: () => string | undefined): string {
  // The client address is resolved only for anonymous callers (trust-proxy parsing costs on every request).
  if (!principal) return `ip:${ip() ?? 'unknown'}`;
  if (principal.kind === 'user') return `user:${principal.userId}`;
  return principal.organizationId ? `org:${principal.organizationId}` : `client:${principal.clientId}`;
}
