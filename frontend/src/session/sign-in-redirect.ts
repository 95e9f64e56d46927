import { currentPathWithQuery, navigate } from '../routing/navigation';
import { loginPath } from '../routing/safe-next-path';
import { clearAccessToken } from './access-token.store';

/** Sends the person to sign in, returning to the current page afterwards; drops a token the backend refused. */
export function redirectToLogin(options: { tokenRefused?: boolean } = {}): void {
  if (options.tokenRefused) clearAccessToken();
  // A second caller (StrictMode's repeated effect, a parallel 401) would otherwise wrap `next` in another login URL.
  if (window.location.pathname === '/login') return;
  navigate(loginPath(currentPathWithQuery()), { replace: true });
}
