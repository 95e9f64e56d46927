/** The two credential resources the pages manage, in either scope. */
export interface CredentialKind {
  /** URL segment: `api-keys` or `oauth-clients`. */
  segment: 'api-keys' | 'oauth-clients';
  title: string;
  singular: string;
  /** The record field holding its name. */
  nameField: 'name' | 'clientName';
  /** The response field holding the one-time secret. */
  secretField: 'plainKey' | 'plainSecret';
  secretLabel: string;
  /** The record field holding the recognizable prefix. */
  prefixField: 'keyPrefix' | 'secretPrefix';
}

/** API keys (organization or application). */
export const API_KEYS: CredentialKind = {
  segment: 'api-keys',
  title: 'API keys',
  singular: 'API key',
  nameField: 'name',
  secretField: 'plainKey',
  secretLabel: 'New API key',
  prefixField: 'keyPrefix',
};

/** OAuth clients (organization or application). */
export const OAUTH_CLIENTS: CredentialKind = {
  segment: 'oauth-clients',
  title: 'OAuth clients',
  singular: 'OAuth client',
  nameField: 'clientName',
  secretField: 'plainSecret',
  secretLabel: 'New client secret',
  prefixField: 'secretPrefix',
};

/** A `datetime-local` value for a date `days` ahead (local time, minutes precision). */
export function localDateTimeInDays(days: number, now: Date = new Date()): string {
  const at = new Date(now.getTime() + days * 86_400_000 - now.getTimezoneOffset() * 60_000);
  return at.toISOString().slice(0, 16);
}
