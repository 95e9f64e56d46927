import { CimdTrustPolicy, type CimdConfig } from '@wildo/shared-lib';
import { CIMD_MAX_URL_LENGTH } from './cimd-document.schema.js';
import { CimdResolutionError } from './cimd.errors.js';

/**
 * Parses a client_id that must be a metadata document URL: https, canonical (exactly as the URL
 * parser prints it, so one client has one spelling), with a path, no credentials, no fragment.
 *
 * @throws {CimdResolutionError} with reason `invalid_client_id_url`
 */
export function parseCimdClientId(clientId: string): URL {
  if (clientId.length > CIMD_MAX_URL_LENGTH || clientId.includes('#'))
    throw new CimdResolutionError('invalid_client_id_url');
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new CimdResolutionError('invalid_client_id_url');
  }
  const acceptable =
    url.protocol === 'https:' &&
    url.username === '' &&
    url.password === '' &&
    url.pathname !== '/' &&
    url.href === clientId;
  if (!acceptable) throw new CimdResolutionError('invalid_client_id_url');
  return url;
}

/**
 * Applies the trust policy: DISABLED refuses everything, ALLOWLIST needs the exact URL or its host
 * name listed, OPEN accepts any valid URL (the outbound guard still applies).
 *
 * @throws {CimdResolutionError} with reason `cimd_disabled`, `invalid_client_id_url` or `not_allowlisted`
 */
export function admitCimdClientId(clientId: string, config: CimdConfig): URL {
  if (config.policy !== CimdTrustPolicy.ALLOWLIST && config.policy !== CimdTrustPolicy.OPEN) {
    throw new CimdResolutionError('cimd_disabled');
  }
  const url = parseCimdClientId(clientId);
  if (
    config.policy === CimdTrustPolicy.ALLOWLIST &&
    !config.allowedClients.some((entry) => allowlistEntryMatches(entry, url))
  ) {
    throw new CimdResolutionError('not_allowlisted');
  }
  return url;
}

function allowlistEntryMatches(entry: string, url: URL): boolean {
  // A bare host has no "/" (the config schema guarantees the shape); it covers every port of that host.
  if (!entry.includes('/')) return url.hostname === entry.toLowerCase();
  try {
    return new URL(entry).href === url.href;
  } catch {
    return false;
  }
}
