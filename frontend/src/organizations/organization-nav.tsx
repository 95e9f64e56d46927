import { isDeclaredSection, useDeclaredNavItems } from '../declared/declared-nav';
import { Link } from '../routing/link';
import { navigate } from '../routing/navigation';
import type { SessionInfo } from '../session/use-session-info';
import { ORGANIZATION_SECTIONS, organizationPath, type OrganizationSection } from './organization-paths';
import { roleName } from './roles';

/**
 * The organization bar above an organization's pages: a switcher (same page, another organization) and
 * the organization's sections.
 */
export function OrganizationNav({
  organizationId,
  section,
  resourceType,
  session,
}: {
  organizationId: string;
  section: OrganizationSection;
  resourceType?: string | undefined;
  session: SessionInfo | null;
}) {
  const organizations = session?.organizations ?? [];
  // Members first, then the declared resources this person may list, then the rest.
  const declared = useDeclaredNavItems(organizationId);
  const [members, ...rest] = ORGANIZATION_SECTIONS.filter((item) => !isDeclaredSection(item.section));
  const items = [
    ...(members ? [{ ...members, resourceType: undefined }] : []),
    ...declared,
    ...rest.map((item) => ({ ...item, resourceType: undefined })),
  ];
  const current = organizations.find((organization) => organization._id === organizationId);
  return (
    <div className="org-bar">
      <div className="field field--inline">
        <label htmlFor="organization-switcher">Organization</label>
        <select
          id="organization-switcher"
          value={current ? organizationId : ''}
          onChange={(event) => {
            if (event.target.value) navigate(organizationPath(event.target.value, section, resourceType));
          }}
        >
          {current ? null : <option value="">{session ? 'Not a member' : 'Loading…'}</option>}
          {organizations.map((organization) => (
            <option key={organization._id} value={organization._id}>
              {organization.name} ({roleName(organization.role)})
            </option>
          ))}
        </select>
        <Link to="/organizations" className="button button--quiet">
          All organizations
        </Link>
      </div>
      <nav aria-label="Organization" className="org-bar__nav">
        <ul>
          {items.map((item) => (
            <li key={`${item.section}/${item.resourceType ?? ''}`}>
              <Link
                to={organizationPath(organizationId, item.section as OrganizationSection, item.resourceType)}
                className="app__nav-link"
                aria-current={item.section === section && item.resourceType === resourceType ? 'page' : undefined}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
