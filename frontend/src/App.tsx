import { useEffect, useRef } from 'react';
import { ConsentsPage } from './account/consents.page';
import { InvitationsPage } from './account/invitations.page';
import { AppHeader } from './app-header';
import { ApprovalsPage } from './approvals/approvals.page';
import { AdminView, matchAdminPath } from './admin/admin-view';
import { AssistantOrganizationPickerPage } from './assistant/organization-picker.page';
import { LoginPage } from './auth/login.page';
import { SignupPage } from './auth/signup.page';
import { VerifyEmailPage } from './auth/verify-email.page';
import { OutboxPage } from './dev/outbox.page';
import { HealthPage } from './health/health.page';
import { HomePage } from './home/home.page';
import { NotFoundPage } from './not-found.page';
import { Auth_OAuthConsent } from './oauth/consent.page';
import { matchOrganizationPath } from './organizations/organization-paths';
import { OrganizationsPage } from './organizations/organizations.page';
import { OrganizationView } from './organizations/organization-view';
import { useLocation } from './routing/navigation';
import { useSessionInfo, type SessionInfo } from './session/use-session-info';
import { UploadDropPage } from './uploads/upload-drop.page';

/** The page for a path; a tiny switch is all the routing these few pages need. */
function RouteView({ pathname, search, session }: { pathname: string; search: string; session: SessionInfo | null }) {
  const path = pathname.replace(/\/+$/, '') || '/';
  const organizationPage = matchOrganizationPath(path);
  // Each organization's pages (its assistant's conversation included) start fresh: nothing carries over.
  if (organizationPage !== null) return <OrganizationView {...organizationPage} session={session} />;
  const adminSection = matchAdminPath(path);
  if (adminSection !== null) return <AdminView section={adminSection} session={session} />;
  switch (path) {
    case '/':
      return <HomePage />;
    case '/status':
      return <HealthPage />;
    case '/login':
      return <LoginPage search={search} />;
    case '/signup':
      return <SignupPage search={search} />;
    case '/verify-email':
      return <VerifyEmailPage />;
    case '/organizations':
      return <OrganizationsPage session={session} />;
    case '/oauth/authorize':
      // A new authorization request is a new page: no state carries over from the previous one.
      return <Auth_OAuthConsent key={search} search={search} />;
    case '/account/consents':
      return <ConsentsPage />;
    case '/account/invitations':
      return <InvitationsPage />;
    case '/assistant':
      return <AssistantOrganizationPickerPage />;
    case '/approvals':
      return <ApprovalsPage />;
    case '/uploads':
      return <UploadDropPage />;
    case '/dev/outbox':
      return <OutboxPage />;
    default:
      return <NotFoundPage />;
  }
}

/** Root of the Wildo web app: header, and the page for the current path. */
export function App() {
  const { pathname, search } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const shownPath = useRef(pathname);
  const session = useSessionInfo();

  useEffect(() => {
    // After an in-app navigation, start keyboard and screen-reader users at the new page's content.
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    mainRef.current?.focus();
  }, [pathname]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader pathname={pathname} session={session} />
      <main id="main" ref={mainRef} tabIndex={-1} className="app__main">
        <RouteView pathname={pathname} search={search} session={session} />
      </main>
    </div>
  );
}
