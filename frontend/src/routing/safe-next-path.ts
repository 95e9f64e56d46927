/** Where sign-in leads when `next` is absent or unsafe. */
export const DEFAULT_AFTER_SIGN_IN = '/';

/**
 * Accepts only a same-origin relative path (one leading `/`), so a crafted sign-in link cannot send
 * the person to another site after they sign in; anything else becomes {@link DEFAULT_AFTER_SIGN_IN}.
 *
 * @example
 * safeNextPath('/oauth/authorize?client_id=a'); // '/oauth/authorize?client_id=a'
 * safeNextPath('//evil.example/');               // '/'
 */
export function safeNextPath(next: string | null | undefined, origin: string = window.location.origin): string {
  if (!next || !next.startsWith('/')) return DEFAULT_AFTER_SIGN_IN;
  // Browsers read `\` as `/` in URLs, and control characters are dropped before parsing.
  // oxlint-disable-next-line no-control-regex -- a path holding a control character is refused, so the regex must find them.
  if (next.startsWith('//') || next.startsWith('/\\') || /[\u0000-\u001f\u007f]/.test(next))
    return DEFAULT_AFTER_SIGN_IN;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (url.origin !== origin) return DEFAULT_AFTER_SIGN_IN;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page address that returns to `next` afterwards. */
export function loginPath(next: string): string {
  return `/login?${new URLSearchParams({ next }).toString()}`;
}
