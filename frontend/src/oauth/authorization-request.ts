import type { OAuthAuthorizeRequest } from '@wildo/shared-lib';

const PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'nonce',
] as const satisfies readonly (keyof OAuthAuthorizeRequest)[];

const REQUIRED = ['response_type', 'client_id', 'redirect_uri'] as const;

/** The authorization request read from the consent page's query string, or why it cannot be sent on. */
export type ReadAuthorizationRequest = { ok: true; request: OAuthAuthorizeRequest } | { ok: false; message: string };

/**
 * Reads the OAuth parameters the browser arrived with. Parameters the backend contract does not
 * name are left out (the contract refuses unknown fields); a repeated parameter is ambiguous and refused.
 *
 * @example
 * readAuthorizationRequest('?response_type=code&client_id=a&redirect_uri=https%3A%2F%2Fa.example%2Fcb');
 */
export function readAuthorizationRequest(search: string): ReadAuthorizationRequest {
  const params = new URLSearchParams(search);
  const request: Partial<Record<(typeof PARAMETERS)[number], string>> = {};
  for (const name of PARAMETERS) {
    const values = params.getAll(name);
    if (values.length > 1) return { ok: false, message: `The parameter “${name}” appears more than once.` };
    if (values[0] !== undefined) request[name] = values[0];
  }
  const missing = REQUIRED.filter((name) => !request[name]);
  if (missing.length > 0)
    return { ok: false, message: `The request is missing ${missing.map((name) => `“${name}”`).join(', ')}.` };
  const { response_type = '', client_id = '', redirect_uri = '', ...optional } = request;
  return { ok: true, request: { response_type, client_id, redirect_uri, ...optional } };
}

// Schemes that would run code or read local data in this page's context instead of handing off to a client.
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'blob:', 'file:']);

/** True when `url` is an absolute address the browser may be sent to (http(s) or a native app's scheme). */
export function isNavigableRedirect(url: string): boolean {
  try {
    return !REFUSED_SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}
