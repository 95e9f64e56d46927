import { CimdTrustPolicy } from '@wildo/shared-lib';
import { API_PREFIX, OAUTH_REGISTRATION_PATH, OAUTH_TOKEN_PATH } from '../urls/index.js';

/** OAuth server settings, resolved from the generated runtime configuration (defaults here, in one place). */
export interface OAuthSettings {
  /** The issuer (the backend's public URL); metadata lives at `<issuer>/.well-known/...`. */
  issuer: string;
  /** The browser-facing authorization URL: the frontend's consent page. */
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string;
  jwksUri: string;
  dynamicClientRegistration: { enabled: boolean; maxRegistrationsPerHourPerIp: number };
  cimd: { policy: CimdTrustPolicy; allowedClients: string[] };
  /** How long a remembered consent lasts (1..3650, default 180). */
  consentGrantLifetimeDays: number;
  /** How long an authorization code may wait before exchange (default 60 s). */
  authorizationCodeLifetimeSeconds: number;
  /** How long the consent page may wait for a decision (default 10 min). */
  consentRequestLifetimeSeconds: number;
}

/** Settings for a backend at `issuer` whose consent page lives at `frontendUrl`. */
export function oauthSettingsFor(
  issuer: string,
  frontendUrl: string,
  overrides: Partial<OAuthSettings> = {},
): OAuthSettings {
  const base = issuer.replace(/\/+$/, '');
  return {
    issuer: base,
    authorizationEndpoint: `${frontendUrl.replace(/\/+$/, '')}/oauth/authorize`,
    tokenEndpoint: `${base}${API_PREFIX}${OAUTH_TOKEN_PATH}`,
    registrationEndpoint: `${base}${API_PREFIX}${OAUTH_REGISTRATION_PATH}`,
    jwksUri: `${base}/.well-known/jwks.json`,
    dynamicClientRegistration: { enabled: false, maxRegistrationsPerHourPerIp: 10 },
    cimd: { policy: CimdTrustPolicy.DISABLED, allowedClients: [] },
    consentGrantLifetimeDays: 180,
    authorizationCodeLifetimeSeconds: 60,
    consentRequestLifetimeSeconds: 600,
    ...overrides,
  };
}
