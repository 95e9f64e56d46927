import { z } from 'zod';
import { isLoopbackAddress } from '../../net/index.js';

/** Longest URL accepted anywhere in a client metadata document. */
export const CIMD_MAX_URL_LENGTH = 2_048;

// Control and bidi-override characters would let a name display differently on the consent screen.
const DISPLAY_UNSAFE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether a redirect URI is acceptable: https, or http to a loopback host (`localhost`, `127.0.0.0/8`,
 * `[::1]`) for native apps, with no credentials and no fragment.
 */
export function isSafeRedirectUri(value: string): boolean {
  // Checked on the raw string: an empty fragment (`cb#`) leaves `URL.hash` empty.
  if (value.length > CIMD_MAX_URL_LENGTH || value.includes('#')) return false;
  const url = parseUrl(value);
  if (!url || url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (url.hostname === 'localhost' || isLoopbackAddress(url.hostname));
}

function isHttpsUrl(value: string): boolean {
  const url = parseUrl(value);
  return (
    url !== undefined && url.protocol === 'https:' && url.username === '' && url.password === '' && !value.includes('#')
  );
}

const httpsUrl = z
  .string()
  .max(CIMD_MAX_URL_LENGTH)
  .refine(isHttpsUrl, 'must be an https URL without credentials or fragment');

/**
 * The client metadata document fields this server reads. Unknown members are ignored; a document
 * carrying a client secret is refused, since a metadata-document client is public by definition.
 */
export const CimdDocumentSchema = z.object({
  client_id: z.string().max(CIMD_MAX_URL_LENGTH),
  client_name: z
    .string()
    .min(1)
    .max(200)
    .refine((name) => name.trim() !== '' && !DISPLAY_UNSAFE.test(name), 'must be a displayable name'),
  redirect_uris: z
    .array(z.string().refine(isSafeRedirectUri, 'must be https or loopback http, without credentials or fragment'))
    .min(1)
    .max(32),
  token_endpoint_auth_method: z.string().max(64).optional(),
  grant_types: z.array(z.literal('authorization_code')).min(1).max(4).optional(),
  response_types: z.array(z.literal('code')).min(1).max(4).optional(),
  client_uri: httpsUrl.optional(),
  logo_uri: httpsUrl.optional(),
  client_secret: z.never().optional(),
  client_secret_expires_at: z.never().optional(),
});

/** A client metadata document as validated by {@link CimdDocumentSchema}. */
export type CimdDocument = z.output<typeof CimdDocumentSchema>;
