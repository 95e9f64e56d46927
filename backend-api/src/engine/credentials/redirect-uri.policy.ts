/** Hosts that count as loopback for redirect URIs (native and CLI clients). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a redirect URI is acceptable: absolute, HTTPS (or HTTP on a loopback host), no embedded
 * credentials, no fragment. Registration and metadata documents apply the same rule.
 */
export function isSafeRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash || value.includes('#')) return false;
  if (url.protocol === 'https:') return url.hostname.length > 0;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
