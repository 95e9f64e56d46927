import { randomUUID } from 'node:crypto';
import type { Clock } from './fixed-window-counters.js';

interface LeaseEntry {
  token: string;
  expiresAt: number;
}

/**
 * In-memory leases: a name maps to a random holder token and an expiry. Only the token's bearer
 * may renew or release; an expired entry counts as free.
 */
export class LeaseTable {
  private readonly entries = new Map<string, LeaseEntry>();

  constructor(private readonly now: Clock) {}

  /** The new holder's token, or `null` when a live holder exists. */
  acquire(name: string, ttlMs: number): string | null {
    const now = this.now();
    const entry = this.entries.get(name);
    if (entry !== undefined && entry.expiresAt > now) return null;
    const token = randomUUID();
    this.entries.set(name, { token, expiresAt: now + ttlMs });
    return token;
  }

  /** Extends the lease when `token` still holds it and it has not expired. */
  renew(name: string, token: string, ttlMs: number): boolean {
    const now = this.now();
    const entry = this.entries.get(name);
    if (entry === undefined || entry.token !== token || entry.expiresAt <= now) return false;
    entry.expiresAt = now + ttlMs;
    return true;
  }

  /** Frees the lease when `token` still holds it. */
  release(name: string, token: string): void {
    if (this.entries.get(name)?.token === token) this.entries.delete(name);
  }

  /** Forgets expired leases. */
  sweep(): void {
    const now = this.now();
    for (const [name, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(name);
  }

  /** Forgets every lease. */
  clear(): void {
    this.entries.clear();
  }
}
