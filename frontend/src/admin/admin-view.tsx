import { BudgetsAdminPage } from '../budgets/budgets-admin.page';
import { CredentialsPage } from '../credentials/credentials.page';
import { API_KEYS, OAUTH_CLIENTS } from '../credentials/credential-kinds';
import { APP_ROLES } from '../organizations/roles';
import { Link } from '../routing/link';
import type { SessionInfo } from '../session/use-session-info';

const ADMIN_SECTIONS = [
  { section: 'api-keys', label: 'Application API keys' },
  { section: 'oauth-clients', label: 'Application OAuth clients' },
  { section: 'budgets', label: 'Plans and budgets' },
] as const;

/** A section of the application administration pages. */
export type AdminSection = (typeof ADMIN_SECTIONS)[number]['section'];

/** Reads `/admin/<section>`; `null` for any other path. */
export function matchAdminPath(path: string): AdminSection | null {
  const section = /^\/admin\/([a-z-]+)$/.exec(path)?.[1];
  return ADMIN_SECTIONS.find((item) => item.section === section)?.section ?? null;
}

/** `/admin/*`: application-scoped credentials and tenants' plans and budgets (application admins; others are refused by the server). */
export function AdminView({ section, session }: { section: AdminSection; session: SessionInfo | null }) {
  const callerRole = session?.appRoles.includes('APP_ADMIN') ? 'APP_ADMIN' : (session?.appRoles[0] ?? null);
  const scope = {
    apiBase: '/api/v1',
    callerRole,
    roleScale: APP_ROLES,
    managerRole: 'APP_ADMIN',
    scopeLabel: 'application',
  };
  return (
    <>
      <nav aria-label="Administration" className="org-bar org-bar__nav">
        <ul>
          {ADMIN_SECTIONS.map((item) => (
            <li key={item.section}>
              <Link
                to={`/admin/${item.section}`}
                className="app__nav-link"
                aria-current={item.section === section ? 'page' : undefined}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {section === 'api-keys' ? (
        <CredentialsPage key="app-keys" kind={API_KEYS} scope={scope} />
      ) : section === 'oauth-clients' ? (
        <CredentialsPage key="app-clients" kind={OAUTH_CLIENTS} scope={scope} />
      ) : (
        <BudgetsAdminPage />
      )}
    </>
  );
}
