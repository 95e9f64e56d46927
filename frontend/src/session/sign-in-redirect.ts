import { currentPathWithQuery, navigate } from '../routing/navigation';
import { loginPath } from '../routing/safe-next-path';
import { clearAccessToken } from './access-token.store';

/** Sends the person to sign in, returning to the current page afterwards; drops a token the backend refused. */
export function redirectToLogin(options: { tokenRefused?: boolean } = {}): void {
  if (options.tokenRefused) clearAccessToken();
  navigate(loginPath(currentPathWithQuery()), { replace: true });
}
