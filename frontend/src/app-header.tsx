import { Link } from './routing/link';
import { currentPathWithQuery, navigate } from './routing/navigation';
import { loginPath } from './routing/safe-next-path';
import { clearAccessToken, useIsSignedIn } from './session/access-token.store';

const NAV_ITEMS = [
  { to: '/', label: 'Status' },
  { to: '/account/consents', label: 'Remembered consents' },
  { to: '/account/invitations', label: 'Invitations' },
  { to: '/assistant', label: 'Assistant' },
] as const;

/** True when `pathname` is the item's page (an organization's assistant counts as the Assistant page). */
function isCurrent(to: string, pathname: string): boolean {
  return pathname === to || (to === '/assistant' && /^\/organizations\/[^/]+\/assistant\/?$/.test(pathname));
}

/** Top bar: product name, the main links, and sign-in or sign-out. */
export function AppHeader({ pathname }: { pathname: string }) {
  const signedIn = useIsSignedIn();
  const signOut = () => {
    clearAccessToken();
    navigate('/');
  };
  return (
    <header className="app__header">
      <div className="app__bar">
        <Link to="/" className="app__brand">
          Wildo
        </Link>
        <nav aria-label="Main" className="app__nav">
          <ul>
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  className="app__nav-link"
                  aria-current={isCurrent(item.to, pathname) ? 'page' : undefined}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="app__session">
          {signedIn ? (
            <button type="button" className="button button--quiet" onClick={signOut}>
              Sign out
            </button>
          ) : pathname === '/login' ? null : (
            <Link to={loginPath(currentPathWithQuery())} className="button button--quiet">
              Sign in
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
