import { useEffect, useRef } from 'react';
import { ConsentsPage } from './account/consents.page';
import { InvitationsPage } from './account/invitations.page';
import { AppHeader } from './app-header';
import { AssistantOrganizationPickerPage } from './assistant/organization-picker.page';
import { TodoAssistantPage } from './assistant/todo-assistant.page';
import { matchTodoAssistantPath } from './assistant/todo-assistant.view';
import { LoginPage } from './auth/login.page';
import { HealthPage } from './health/health.page';
import { NotFoundPage } from './not-found.page';
import { Auth_OAuthConsent } from './oauth/consent.page';
import { useLocation } from './routing/navigation';
import { UploadDropPage } from './uploads/upload-drop.page';

/** The page for a path; a tiny switch is all the routing these few pages need. */
function RouteView({ pathname, search }: { pathname: string; search: string }) {
  const path = pathname.replace(/\/+$/, '') || '/';
  const assistantOrganizationId = matchTodoAssistantPath(path);
  // Each organization's assistant is its own conversation: nothing carries over between them.
  if (assistantOrganizationId !== null)
    return <TodoAssistantPage key={assistantOrganizationId} organizationId={assistantOrganizationId} />;
  switch (path) {
    case '/':
      return <HealthPage />;
    case '/login':
      return <LoginPage search={search} />;
    case '/oauth/authorize':
      // A new authorization request is a new page: no state carries over from the previous one.
      return <Auth_OAuthConsent key={search} search={search} />;
    case '/account/consents':
      return <ConsentsPage />;
    case '/account/invitations':
      return <InvitationsPage />;
    case '/assistant':
      return <AssistantOrganizationPickerPage />;
    case '/uploads':
      return <UploadDropPage />;
    default:
      return <NotFoundPage />;
  }
}

/** Root of the Wildo web app: header, and the page for the current path. */
export function App() {
  const { pathname, search } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const shownPath = useRef(pathname);

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
      <AppHeader pathname={pathname} />
      <main id="main" ref={mainRef} tabIndex={-1} className="app__main">
        <RouteView pathname={pathname} search={search} />
      </main>
    </div>
  );
}
