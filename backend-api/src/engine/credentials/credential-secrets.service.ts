import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { PrimarySecret } from '../identity/index.js';

/** Bytes of randomness in every generated secret (256 bits: far beyond guessing, so a keyed hash suffices). */
const SECRET_BYTES = 32;

/**
 * Hashes high-entropy credential secrets (API keys, client secrets, registration tokens) with HMAC-SHA256
 * under a key derived from the primary secret. Only hashes are stored; comparison is constant-time.
 */
@injectable()
export class CredentialSecrets {
  private readonly key: Buffer;

  constructor(@inject(SAAS_SERVICE_TYPES.PrimarySecret) secret: PrimarySecret) {
    this.key = secret.derive('credential-secrets');
  }

  /** A fresh random secret (base64url, 43 characters). */
  generate(): string {
    return randomBytes(SECRET_BYTES).toString('base64url');
  }

  /** The stored form of a secret. */
  hash(secret: string): string {
    return createHmac('sha256', this.key).update(secret).digest('base64url');
  }

  /** Whether `secret` hashes to `stored`, in constant time. */
  matches(secret: string, stored: string): boolean {
    const actual = Buffer.from(this.hash(secret));
    const expected = Buffer.from(stored);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
