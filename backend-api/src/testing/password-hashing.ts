import type { PasswordHashParameters } from '../engine/identity/password-hash.parameters.js';

/**
 * Argon2id at a cost of well under a millisecond, for test backends (`identity.passwordHashing`): a suite signs up
 * hundreds of people, and at the production cost each hash takes tens of milliseconds of CPU. Hashes still go
 * through Argon2id; the production default is asserted where passwords are hashed.
 */
export const TEST_PASSWORD_HASHING: Readonly<PasswordHashParameters> = { memoryCost: 256, timeCost: 1, parallelism: 1 };
