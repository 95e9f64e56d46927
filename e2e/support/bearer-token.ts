import { inspect } from 'node:util';

/**
 * An access token that refuses to be printed: string conversion, JSON and `console.log` all show
 * `[redacted]`, so a check detail or a thrown fixture error can never carry a credential into the report.
 * Only the HTTP client calls {@link BearerToken.reveal}.
 */
export class BearerToken {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The raw token, for the `Authorization` header only. */
  reveal(): string {
    return this.#value;
  }

  /** A copy with the JWT's payload (middle part) replaced, for tampering probes. */
  withPayload(transform: (claims: Record<string, unknown>) => Record<string, unknown>): BearerToken {
    const [header = '', payload = '', signature = ''] = this.#value.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify(transform(claims)), 'utf8').toString('base64url');
    return new BearerToken(`${header}.${forged}.${signature}`);
  }

  /** A copy whose signature no longer matches (its first characters changed, so it cannot still verify). */
  withBrokenSignature(): BearerToken {
    const [header = '', payload = '', signature = ''] = this.#value.split('.');
    const flipped =
      (signature.startsWith('A') ? 'B' : 'A') + (signature.slice(1, 2) === 'A' ? 'B' : 'A') + signature.slice(2);
    return new BearerToken(`${header}.${payload}.${flipped}`);
  }

  /** The same claims under an unsigned `alg: none` header, with an empty signature. */
  asUnsigned(): BearerToken {
    const [, payload = ''] = this.#value.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' }), 'utf8').toString('base64url');
    return new BearerToken(`${header}.${payload}.`);
  }

  toString(): string {
    return '[redacted]';
  }

  toJSON(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return 'BearerToken([redacted])';
  }
}
