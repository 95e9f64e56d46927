import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD_HASHING } from '../../testing/password-hashing.js';
import { identitySettingsFor } from './identity-settings.js';
import { PASSWORD_HASH_PARAMETERS } from './password-hash.parameters.js';
import { PasswordHasher } from './password-hasher.service.js';

describe('PasswordHasher', () => {
  it("hashes with OWASP's first Argon2id profile unless told otherwise, as a backend's settings default to", async () => {
    expect(identitySettingsFor('http://localhost:4241').passwordHashing).toEqual(PASSWORD_HASH_PARAMETERS);
    const hashed = await new PasswordHasher().hash('correct horse battery staple');
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('hashes at the configured cost, and verifies hashes of any cost from the cost they carry', async () => {
    const cheap = new PasswordHasher({ passwordHashing: TEST_PASSWORD_HASHING });
    const hashed = await cheap.hash('correct horse battery staple');
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    expect(await new PasswordHasher().verify(hashed, 'correct horse battery staple')).toBe(true);
    const strong = await new PasswordHasher().hash('correct horse battery staple');
    expect(await cheap.verify(strong, 'correct horse battery staple')).toBe(true);
    expect(await cheap.verify(strong, 'wrong horse battery staple')).toBe(false);
  });
});
