import { hash, verify } from '@node-rs/argon2';
import { inject, injectable, optional } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { IdentitySettings } from './identity-settings.js';
import { PASSWORD_HASH_PARAMETERS, type PasswordHashParameters } from './password-hash.parameters.js';

/** Hashes and checks passwords with a memory-hard KDF (Argon2id). */
@injectable()
export class PasswordHasher {
  // A hash of a random password, verified when the account does not exist so both paths cost the same.
  private decoy?: Promise<string>;
  private readonly parameters: Readonly<PasswordHashParameters>;

  constructor(
    @inject(SAAS_SERVICE_TYPES.IdentitySettings) @optional() settings?: Pick<IdentitySettings, 'passwordHashing'>,
  ) {
    this.parameters = settings?.passwordHashing ?? PASSWORD_HASH_PARAMETERS;
  }

  /** A PHC-format Argon2id hash with a random salt, at the configured cost (verification reads it from the hash). */
  hash(password: string): Promise<string> {
    return hash(password, this.parameters);
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
