/** The engine's own credential resource types (their REST segments are `api-keys` and `oauth-clients`). */
export const CREDENTIAL_RESOURCE_TYPES = {
  ORGANIZATION_API_KEYS: 'organization-api-keys',
  APPLICATION_API_KEYS: 'application-api-keys',
  ORGANIZATION_OAUTH_CLIENTS: 'organization-oauth-clients',
  APPLICATION_OAUTH_CLIENTS: 'application-oauth-clients',
} as const;

/** Custom operations of credentials. */
export enum Credentials_Operations {
  ROTATE = 'rotate',
  REGENERATE = 'regenerate',
}

/** The pub/sub channel on which replicas announce that a credential changed (rotated, deleted). */
export const CREDENTIAL_CHANGED_CHANNEL = 'credentials.changed';
