/** Identity settings resolved from the generated runtime configuration and the environment. */
export interface IdentitySettings {
  /** `iss` of every token: the backend's public URL. */
  issuer: string;
  /** `aud` of first-party access tokens: the REST API. */
  apiAudience: string;
  accessTokenLifetimeMinutes: number;
  /** Emails that receive APP_ADMIN when they sign up (bootstrap of the first administrator). */
  bootstrapAdminEmails: readonly string[];
  /** How long an invitation to an organization can be accepted (default 14 days). */
  invitationLifetimeDays: number;
}

/** Settings for a backend reachable at `publicUrl`. */
export function identitySettingsFor(publicUrl: string, overrides: Partial<IdentitySettings> = {}): IdentitySettings {
  const issuer = publicUrl.replace(/\/+$/, '');
  return {
    issuer,
    apiAudience: `${issuer}/api/v1`,
    accessTokenLifetimeMinutes: 15,
    bootstrapAdminEmails: [],
    invitationLifetimeDays: 14,
    ...overrides,
  };
}
