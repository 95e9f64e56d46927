// Credentials: API keys and OAuth clients as resources, their secrets (shown once, stored hashed) and rotation.
export { credentialsModule } from './credentials.module.js';
export { CredentialDirectory } from './credential-directory.service.js';
export { assertRequestedRolesWithinCallerCeiling } from './roles-ceiling.js';
export { type ApiKeyScope, generateApiKeyMaterial, looksLikeApiKey } from './api-key-material.js';
export { type ApiKeyImplHandlers, buildApiKeyMintHandlers } from './api-keys.custom-impl.service.js';
export { CredentialSecrets } from './credential-secrets.service.js';
export { CREDENTIAL_RESOURCE_TYPES } from './credentials.resource-types.js';
export { DYNAMIC_REGISTRATION_VARIANT } from './oauth-clients.resource.js';
