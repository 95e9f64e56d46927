/** Argon2id cost: memory in KiB, passes, lanes. */
export interface PasswordHashParameters {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** Argon2id parameters (OWASP's first recommended profile: 19 MiB, 2 passes, 1 lane). */
export const PASSWORD_HASH_PARAMETERS: Readonly<PasswordHashParameters> = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};
