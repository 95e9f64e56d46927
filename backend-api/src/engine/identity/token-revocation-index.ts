// Subjects are space-separated: ids and URLs contain no space (and PostgreSQL text admits no NUL).

/** Every token of a client: its client_credentials tokens and the tokens people delegated to it. */
export function clientRevocationSubject(clientId: string): string {
  return `client ${clientId}`;
}

/** The tokens one person delegated to one client for one resource (the token's audience). */
export function grantRevocationSubject(userId: string, clientId: string, resource: string): string {
  return `grant ${userId} ${clientId} ${resource}`;
}

const NEVER = Number.NEGATIVE_INFINITY;

/**
 * Revocation instants by subject, shaped so that checking a token costs a few Map lookups on strings the
 * token already carries (no key is built per request).
 */
export class RevocationIndex {
  private readonly clients = new Map<string, number>();
  /** client id → user id → audience → instant. */
  private readonly grants = new Map<string, Map<string, Map<string, number>>>();

  /** Records `subject` as revoked at `atMs`, keeping the later of two instants; false for a subject it does not know. */
  add(subject: string, atMs: number): boolean {
    const [kind, ...parts] = subject.split(' ');
    if (kind === 'client' && parts.length === 1) {
      const [clientId] = parts as [string];
      this.clients.set(clientId, Math.max(atMs, this.clients.get(clientId) ?? NEVER));
      return true;
    }
    if (kind === 'grant' && parts.length === 3) {
      const [userId, clientId, audience] = parts as [string, string, string];
      const byUser = this.grants.get(clientId) ?? new Map<string, Map<string, number>>();
      const byAudience = byUser.get(userId) ?? new Map<string, number>();
      byAudience.set(audience, Math.max(atMs, byAudience.get(audience) ?? NEVER));
      byUser.set(userId, byAudience);
      this.grants.set(clientId, byUser);
      return true;
    }
    return false;
  }

  /** When the client was last revoked (-Infinity if never). */
  clientRevokedAt(clientId: string): number {
    return this.clients.get(clientId) ?? NEVER;
  }

  /** When the person's consent to the client for this audience was last withdrawn (-Infinity if never). */
  grantRevokedAt(userId: string, clientId: string, audience: string): number {
    return this.grants.get(clientId)?.get(userId)?.get(audience) ?? NEVER;
  }

  /** Forgets revocations at or before `horizonMs`: no token issued before them is still alive. */
  prune(horizonMs: number): void {
    for (const [clientId, at] of this.clients) if (at <= horizonMs) this.clients.delete(clientId);
    for (const [clientId, byUser] of this.grants) {
      for (const [userId, byAudience] of byUser) {
        for (const [audience, at] of byAudience) if (at <= horizonMs) byAudience.delete(audience);
        if (byAudience.size === 0) byUser.delete(userId);
      }
      if (byUser.size === 0) this.grants.delete(clientId);
    }
  }
}
