/**
 * Origin checks of URL values (images, web pages, the links and images inside HTML). A URL is read with the
 * WHATWG parser, the one browsers use, so what is checked is what a browser would open: tabs and newlines inside a
 * scheme, backslashes and percent-encoding are resolved the same way here and there. The value itself is never
 * changed and never fetched.
 */

/** Why a URL may not leave: not an absolute https URL without credentials, or on an origin nobody declared. */
export type UrlRefusal = 'url_not_allowed' | 'origin_not_declared';

/** A set of declared origins, normalized once (`https://host[:port]`, default port omitted). */
export type OriginSet = ReadonlySet<string>;

/**
 * The normalized form of a declared origin, or the reason it cannot be one: absolute https, no credentials, no
 * path, query or fragment. `https://Example.com:443/` → `https://example.com`.
 */
export function normalizeOrigin(declared: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(declared);
  } catch {
    return { problem: `"${declared}" is not an absolute URL; write an origin such as https://images.example.com` };
  }
  if (url.protocol !== 'https:') return { problem: `"${declared}" must use https` };
  if (url.username || url.password) return { problem: `"${declared}" must not carry credentials` };
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(declared))
    return { problem: `"${declared}" must be an origin only (scheme, host and port), with no path, query or fragment` };
  return { origin: url.origin };
}

/** Normalizes declared origins for matching; origins that fail {@link normalizeOrigin} are left out (start refuses them). */
export function originSet(declared: readonly string[]): OriginSet {
  const set = new Set<string>();
  for (const entry of declared) {
    const normalized = normalizeOrigin(entry);
    if ('origin' in normalized) set.add(normalized.origin);
  }
  return set;
}

/** The parsed URL, or undefined when `value` is not an absolute URL. */
export function absoluteUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Checks one URL value against declared origins: null when it may leave as it is, else why not. It must be an
 * absolute https URL without credentials whose origin is exactly one of `origins`.
 */
export function checkUrl(value: string, origins: OriginSet): UrlRefusal | null {
  const url = absoluteUrl(value);
  if (!url || url.protocol !== 'https:' || url.username || url.password) return 'url_not_allowed';
  return origins.has(url.origin) ? null : 'origin_not_declared';
}
