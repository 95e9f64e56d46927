import { ASSISTANT_LAUNCHER, flowsActorsViews } from '../app.views';
import { AssistantLauncher } from '../assistant/assistant-launcher';
import { TodoAssistantPage } from '../assistant/todo-assistant.page';
import { NotFoundPage } from '../not-found.page';
import { CredentialsPage } from '../credentials/credentials.page';
import { API_KEYS, OAUTH_CLIENTS } from '../credentials/credential-kinds';
import { UsagePage } from '../budgets/usage.page';
import { DeclaredResourceView } from '../declared/declared-resource.view';
import { isDeclaredSection } from '../declared/declared-nav';
import type { SessionInfo } from '../session/use-session-info';
import { MembersPage } from './members.page';
import { OrganizationNav } from './organization-nav';
import type { OrganizationSection } from './organization-paths';
import { ORG_ROLES } from './roles';

/** One organization's page: the organization bar, then the section. Each organization gets fresh page state. */
export function OrganizationView({
  organizationId,
  section,
  viewRef,
  resourceType,
  session,
}: {
  organizationId: string;
  section: OrganizationSection;
  /** For the assistant section: the declared view to open (default: the first). */
  viewRef?: string | undefined;
  /** For `records`: the declared resource whose generated page to show. */
  resourceType?: string | undefined;
  session: SessionInfo | null;
}) {
  const view = flowsActorsViews.find((candidate) => candidate.ref === viewRef) ?? flowsActorsViews[0];
  const label = ASSISTANT_LAUNCHER.find((entry) => entry.viewRef === view?.ref)?.label ?? 'Assistant';
  const role = session?.organizations.find((organization) => organization._id === organizationId)?.role ?? null;
  const apiBase = `/api/v1/organizations/${encodeURIComponent(organizationId)}`;
  const scope = (managerRole: string) => ({
    apiBase,
    callerRole: role,
    roleScale: ORG_ROLES,
    managerRole,
    scopeLabel: 'organization',
  });
  return (
    <>
      <OrganizationNav
        organizationId={organizationId}
        section={section}
        resourceType={resourceType}
        session={session}
      />
      {section === '' ? (
        <MembersPage key={organizationId} organizationId={organizationId} session={session} />
      ) : section === 'records' ? (
        <DeclaredResourceView
          key={`${organizationId}:${resourceType ?? ''}`}
          organizationId={organizationId}
          address={{ type: resourceType ?? '' }}
          callerRole={role}
        />
      ) : isDeclaredSection(section) ? (
        <DeclaredResourceView
          key={`${organizationId}:${section}`}
          organizationId={organizationId}
          address={{ section }}
          callerRole={role}
        />
      ) : section === 'assistant' ? (
        <>
          <AssistantLauncher organizationId={organizationId} currentViewRef={view?.ref} />
          {view && (viewRef === undefined || view.ref === viewRef) ? (
            <TodoAssistantPage
              key={`${organizationId}:${view.ref}`}
              organizationId={organizationId}
              view={view}
              title={label}
            />
          ) : (
            <NotFoundPage />
          )}
        </>
      ) : section === 'api-keys' ? (
        <CredentialsPage key={organizationId} kind={API_KEYS} scope={scope('ORG_MANAGER')} />
      ) : section === 'oauth-clients' ? (
        <CredentialsPage key={organizationId} kind={OAUTH_CLIENTS} scope={scope('ORG_ADMIN')} />
      ) : (
        <UsagePage key={organizationId} organizationId={organizationId} />
      )}
    </>
  );
}
