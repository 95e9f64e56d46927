import { describe, expect, it } from 'vitest';
import { clientRevocationSubject, grantRevocationSubject, RevocationIndex } from './token-revocation-index.js';

const AUDIENCE = 'https://api.example/api/v1/mcp';

describe('RevocationIndex', () => {
  it('keeps the later of two instants for one subject, in either order', () => {
    const index = new RevocationIndex();
    index.add(clientRevocationSubject('c'), 2_000);
    index.add(clientRevocationSubject('c'), 1_000);
    index.add(grantRevocationSubject('u', 'c', AUDIENCE), 1_000);
    index.add(grantRevocationSubject('u', 'c', AUDIENCE), 3_000);
    expect(index.clientRevokedAt('c')).toBe(2_000);
    expect(index.grantRevokedAt('u', 'c', AUDIENCE)).toBe(3_000);
    expect(index.clientRevokedAt('other')).toBe(Number.NEGATIVE_INFINITY);
  });

  it('refuses a subject of an unknown kind or shape, and records nothing for it', () => {
    const index = new RevocationIndex();
    expect(index.add('user u', 1_000)).toBe(false);
    expect(index.add('client a b', 1_000)).toBe(false);
    expect(index.add(clientRevocationSubject('a'), 1_000)).toBe(true);
    expect(index.clientRevokedAt('b')).toBe(Number.NEGATIVE_INFINITY);
  });

  it('prunes revocations at or before the horizon and keeps later ones', () => {
    const index = new RevocationIndex();
    index.add(clientRevocationSubject('old'), 1_000);
    index.add(clientRevocationSubject('new'), 5_000);
    index.add(grantRevocationSubject('u', 'c', AUDIENCE), 1_000);
    index.add(grantRevocationSubject('u', 'c', `${AUDIENCE}/support`), 5_000);
    index.prune(1_000);
    expect(index.clientRevokedAt('old')).toBe(Number.NEGATIVE_INFINITY);
    expect(index.clientRevokedAt('new')).toBe(5_000);
    expect(index.grantRevokedAt('u', 'c', AUDIENCE)).toBe(Number.NEGATIVE_INFINITY);
    expect(index.grantRevokedAt('u', 'c', `${AUDIENCE}/support`)).toBe(5_000);
  });
});
