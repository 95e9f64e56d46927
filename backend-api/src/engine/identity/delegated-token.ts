import type { AuthenticatedPrincipal } from './principal.types.js';

// Kept beside the principal, never on it: a principal is logged, copied and frozen; the token must not travel with it.
const verifiedTokens = new WeakMap<AuthenticatedPrincipal, string>();

/**
 * Remembers the token a person's delegated principal was verified from, for the one place that forwards it (a
 * connector binding naming `${caller.accessToken}`). Any other principal is ignored: a first-party token, an API key
 * or a machine token is never forwarded.
 */
export function rememberDelegatedToken(principal: AuthenticatedPrincipal, token: string): void {
  if (principal.kind === 'user' && principal.credential.type === 'delegated_token')
    verifiedTokens.set(principal, token);
}

/** The delegated token this exact principal object was verified from, if any (copies of it have none). */
export function delegatedTokenOf(principal: AuthenticatedPrincipal | undefined): string | undefined {
  return principal ? verifiedTokens.get(principal) : undefined;
}
