import { ACCESS_TOKEN_KEY } from '../session/access-token.store';

/** The access token tests sign in with. */
export const TEST_TOKEN = 'test-access-token';

/** Puts a signed-in session in place, as the login page leaves it. */
export function signIn(token: string = TEST_TOKEN): void {
  window.sessionStorage.setItem(ACCESS_TOKEN_KEY, token);
}

/** Opens `path` as if the browser had navigated there (render the app afterwards). */
export function openAt(path: string): void {
  window.history.replaceState(null, '', path);
}

/** The address bar's path and query. */
export function currentUrl(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/** The signed-in person as `GET /api/v1/auth/me` returns them. */
export const TEST_USER = { _id: 'user-1', email: 'ada@example.com', displayName: 'Ada' };
