import { useEffect, useState } from 'react';
import { ORGANIZATION_SECTIONS, organizationPath } from './organizations/organization-paths';
import { matchOrganizationPath } from './organizations/organization-paths';
import { Link } from './routing/link';
import { currentPathWithQuery, navigate } from './routing/navigation';
import { loginPath } from './routing/safe-next-path';
import { clearAccessToken, useIsSignedIn } from './session/access-token.store';
import type { SessionInfo } from './session/use-session-info';

const NAV_ITEMS = [
  { to: '/organizations', label: 'Organizations' },
  { to: '/account/invitations', label: 'Invitations' },
  { to: '/assistant', label: 'Assistant' },
  { to: '/account/consents', label: 'Remembered consents' },
] as const;

/** True when `pathname` is the item's page (an organization's assistant counts as the Assistant page). */
function isCurrent(to: string, pathname: string): boolean {
  if (to === '/assistant') return pathname === to || /^\/organizations\/[^/]+\/assistant\/?$/.test(pathname);
  if (to === '/organizations')
    return pathname === to || /^\/organizations\/[^/]+(\/(?!assistant)[a-z-]+)?\/?$/.test(pathname);
  return pathname === to || (to === '/admin/api-keys' && pathname.startsWith('/admin/'));
}

/**
 * Top bar: product name, the main links (Administration for application admins), and sign-in or sign-out. On a
 * narrow screen the links fold behind one Menu button, and inside an organization the menu also holds its pages
 * (the organization bar's own links are then hidden): one navigation, and the content starts near the top.
 */
export function AppHeader({ pathname, session }: { pathname: string; session: SessionInfo | null }) {
  const signedIn = useIsSignedIn();
  const [open, setOpen] = useState(false);
  // Following a link closes the menu.
  useEffect(() => setOpen(false), [pathname]);
  const items = session?.appRoles.includes('APP_ADMIN')
    ? [...NAV_ITEMS, { to: '/admin/api-keys', label: 'Administration' }]
    : NAV_ITEMS;
  const inOrganization = matchOrganizationPath(pathname.replace(/\/+$/, '') || '/');
  const organization = inOrganization
    ? session?.organizations.find((item) => item._id === inOrganization.organizationId)
    : undefined;
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
        {signedIn ? (
          <button
            type="button"
            className="button button--quiet app__menu-button"
            aria-expanded={open}
            aria-controls="main-navigation"
            onClick={() => setOpen((value) => !value)}
          >
            Menu
          </button>
        ) : null}
        {signedIn ? (
          <nav id="main-navigation" aria-label="Main" className={open ? 'app__nav app__nav--open' : 'app__nav'}>
            <ul>
              {items.map((item) => (
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
            {inOrganization && organization ? (
              <ul className="app__nav-org" aria-label={`${organization.name} pages`}>
                {ORGANIZATION_SECTIONS.map((item) => (
                  <li key={item.section}>
                    <Link
                      to={organizationPath(inOrganization.organizationId, item.section)}
                      className="app__nav-link"
                      aria-current={item.section === inOrganization.section ? 'page' : undefined}
                    >
                      {organization.name}: {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </nav>
        ) : null}
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
