import { createHash, randomBytes } from 'node:crypto';

/** A fresh opaque token (256 bits) with a type prefix, and the hash that is stored instead. */
export function mintOpaqueToken(prefix: string): { token: string; hash: string } {
  const token = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashOpaqueToken(token) };
}

/** The stored form of an opaque token (high entropy, so a plain digest suffices). */
export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
