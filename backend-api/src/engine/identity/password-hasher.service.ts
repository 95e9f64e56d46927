import { hash, verify } from '@node-rs/argon2';
import { injectable } from 'inversify';

/** Argon2id parameters (OWASP's first recommended profile: 19 MiB, 2 passes, 1 lane). */
export const PASSWORD_HASH_PARAMETERS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes and checks passwords with a memory-hard KDF (Argon2id). */
@injectable()
export class PasswordHasher {
  // A hash of a random password, verified when the account does not exist so both paths cost the same.
  private decoy?: Promise<string>;

  /** A PHC-format Argon2id hash with a random salt. */
  hash(password: string): Promise<string> {
    return hash(password, PASSWORD_HASH_PARAMETERS);
  }

  /** Whether `password` matches `hashed`; a malformed hash counts as a mismatch. */
  async verify(hashed: string, password: string): Promise<boolean> {
    try {
      return await verify(hashed, password);
    } catch {
      return false;
    }
  }

  /** Spends the same work as a real verification, for unknown accounts (no timing oracle for emails). */
  async verifyDecoy(password: string): Promise<false> {
    this.decoy ??= this.hash(`decoy-${Math.random()}`);
    await this.verify(await this.decoy, password);
    return false;
  }
}
