import type { CredentialSecrets } from './credential-secrets.service.js';

/** Which kind of machine an API key is. */
export type ApiKeyScope = 'ORGANIZATION' | 'APPLICATION';

const PREFIX: Record<ApiKeyScope, string> = { ORGANIZATION: 'sk_org_', APPLICATION: 'sk_app_' };
const KEY_PATTERN = /^sk_(org|app)_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const UUID_HEX = /^[0-9a-f]{32}$/;

/** A freshly minted key: the plaintext (shown once), what is displayed, what is stored. */
export interface ApiKeyMaterial {
  plainKey: string;
  keyPrefix: string;
  hashedKey: string;
}

/** A presented key, split into its parts. */
export interface ParsedApiKey {
  scope: ApiKeyScope;
  keyId: string;
  secret: string;
}

function uuidFromHex(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Mints key material for the key record `keyId`: `sk_org_<id>_<secret>` (or `sk_app_`). The id lets the
 * engine find the record; only the secret's keyed hash is stored.
 */
export function generateApiKeyMaterial(scope: ApiKeyScope, keyId: string, secrets: CredentialSecrets): ApiKeyMaterial {
  const hex = keyId.replaceAll('-', '');
  if (!UUID_HEX.test(hex)) throw new Error('API key ids are UUIDs.');
  const secret = secrets.generate();
  const plainKey = `${PREFIX[scope]}${hex}_${secret}`;
  return { plainKey, keyPrefix: `${plainKey.slice(0, 15)}…`, hashedKey: secrets.hash(secret) };
}

/** Splits a presented key, or null when it is not shaped like one. */
export function parseApiKey(value: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(value.trim());
  if (!match) return null;
  const [, kind, hex, secret] = match as unknown as [string, string, string, string];
  return { scope: kind === 'org' ? 'ORGANIZATION' : 'APPLICATION', keyId: uuidFromHex(hex), secret };
}

/** Whether a header value looks like an API key (so the API key strategy, not Bearer, handles it). */
export function looksLikeApiKey(value: string): boolean {
  return value.startsWith('sk_org_') || value.startsWith('sk_app_');
}
