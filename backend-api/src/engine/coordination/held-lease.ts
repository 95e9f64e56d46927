import { assertTtl } from './coordination-arguments.js';
import type { Lease } from './coordination.js';

/** What a {@link HeldLease} needs from its backend: compare-and-renew and compare-and-release by token. */
export interface LeaseStore {
  renewLease(name: string, token: string, ttlMs: number): Promise<boolean>;
  releaseLease(name: string, token: string): Promise<void>;
}

/** A lease bound to its holder token; the token never leaves this object. */
export class HeldLease implements Lease {
  readonly #token: string;

  constructor(
    readonly name: string,
    token: string,
    private readonly store: LeaseStore,
  ) {
    this.#token = token;
  }

  /** Extends the lease when this holder still has it. */
  async renew(ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    return this.store.renewLease(this.name, this.#token, ttlMs);
  }

  /** Gives the lease up when this holder still has it. */
  async release(): Promise<void> {
    await this.store.releaseLease(this.name, this.#token);
  }
}
