export {
  ApplicationApiKeySchema,
  ApplicationOAuthClientSchema,
  OAuthClientAuthMethod,
  OAuthClientGrantType,
  OAuthClientSecretSchema,
  OrganizationApiKeySchema,
  OrganizationOAuthClientSchema,
  RegenerateApiKeyResponseFields,
  RotateApiKeyResponseFields,
  RotateCredentialRequestSchema,
  RotateOAuthClientResponseFields,
} from './credentials.schema.js';
