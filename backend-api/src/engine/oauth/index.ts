// The OAuth 2.1 authorization server: discovery, authorization and consent, tokens, registration, consent grants.
export { oauthModule } from './oauth.module.js';
export { type OAuthSettings, oauthSettingsFor } from './oauth-settings.js';
export { AuthorizationService } from './authorization.service.js';
export { createDiscoveryRouter } from './discovery.routes.js';
export { createAuthorizationRouter, createTokenAndRegistrationRouter } from './oauth.routes.js';
export { RegistrationService } from './registration.service.js';
export { TokenEndpointService } from './token-endpoint.service.js';
