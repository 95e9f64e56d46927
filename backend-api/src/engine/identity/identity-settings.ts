import { PASSWORD_HASH_PARAMETERS, type PasswordHashParameters } from './password-hash.parameters.js';
import { DEFAULT_LOGIN_THROTTLE, type LoginThrottlePolicy } from './login-throttle.policy.js';
import { API_PREFIX } from '../urls/index.js';

/** Identity settings resolved from the generated runtime configuration and the environment. */
export interface IdentitySettings {
  /** `iss` of every token: the backend's public URL. */
  issuer: string;
  /** `aud` of first-party access tokens: the REST API. */
  apiAudience: string;
  accessTokenLifetimeMinutes: number;
  /** Failure budgets of password sign-in (defaults in {@link DEFAULT_LOGIN_THROTTLE}). */
  loginThrottle: LoginThrottlePolicy;
  /** How long an invitation to an organization can be accepted (default 14 days). */
  invitationLifetimeDays: number;
  /**
   * Argon2id cost of new password hashes (default {@link PASSWORD_HASH_PARAMETERS}, OWASP's first profile). Tests
   * lower it: they sign up hundreds of people, and the cost is not what they check.
   */
  passwordHashing: Readonly<PasswordHashParameters>;
}

/** What a backend's options may change of the identity settings (any sign-in budget alone). */
export type IdentitySettingsOverrides = Partial<Omit<IdentitySettings, 'loginThrottle'>> & {
  loginThrottle?: Partial<LoginThrottlePolicy>;
};

/** Settings for a backend reachable at `publicUrl`. */
export function identitySettingsFor(publicUrl: string, overrides: IdentitySettingsOverrides = {}): IdentitySettings {
  const issuer = publicUrl.replace(/\/+$/, '');
  const { loginThrottle, ...rest } = overrides;
  return {
    issuer,
    apiAudience: `${issuer}${API_PREFIX}`,
    accessTokenLifetimeMinutes: 15,
    invitationLifetimeDays: 14,
    passwordHashing: PASSWORD_HASH_PARAMETERS,
    ...rest,
    loginThrottle: { ...DEFAULT_LOGIN_THROTTLE, ...loginThrottle },
  };
}
