import { CimdTrustPolicy, OIDC_SUPPORTED_IDENTITY_SCOPES } from '@wildo/shared-lib';
import { Router } from 'express';
import { SIGNING_ALGORITHM } from '../identity/index.js';
import type { OAuthSettings } from './oauth-settings.js';

/** The authorization server metadata (RFC 8414), also served as the OpenID configuration. */
export function authorizationServerMetadata(settings: OAuthSettings): Record<string, unknown> {
  const cimd = settings.cimd.policy !== CimdTrustPolicy.DISABLED;
  return {
    issuer: settings.issuer,
    authorization_endpoint: settings.authorizationEndpoint,
    token_endpoint: settings.tokenEndpoint,
    jwks_uri: settings.jwksUri,
    ...(settings.dynamicClientRegistration.enabled ? { registration_endpoint: settings.registrationEndpoint } : {}),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: [...OIDC_SUPPORTED_IDENTITY_SCOPES],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nonce', 'azp', 'email', 'email_verified', 'name'],
    authorization_response_iss_parameter_supported: true,
    ...(cimd ? { client_id_metadata_document_supported: true } : {}),
  };
}

/** `/.well-known/oauth-authorization-server` and `/.well-known/openid-configuration`. */
export function createDiscoveryRouter(settings: OAuthSettings): Router {
  const router = Router();
  const metadata = authorizationServerMetadata(settings);
  const send = (_req: unknown, res: { setHeader(k: string, v: string): void; json(body: unknown): void }) => {
    res.setHeader('cache-control', 'public, max-age=300');
    res.json(metadata);
  };
  router.get('/.well-known/oauth-authorization-server', send);
  router.get('/.well-known/openid-configuration', send);
  return router;
}
