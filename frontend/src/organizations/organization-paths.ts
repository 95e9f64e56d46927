/** The pages of one organization, in navigation order. */
export const ORGANIZATION_SECTIONS = [
  { section: '', label: 'Members' },
  { section: 'todos', label: 'Todos' },
  { section: 'documents', label: 'Documents' },
  { section: 'assistant', label: 'Assistant' },
  { section: 'api-keys', label: 'API keys' },
  { section: 'oauth-clients', label: 'OAuth clients' },
  { section: 'usage', label: 'Usage' },
] as const;

/**
 * A section of an organization's pages (`''` is its members page, `records` the generated page of a declared
 * resource, `/organizations/:id/records/:type`).
 */
export type OrganizationSection = (typeof ORGANIZATION_SECTIONS)[number]['section'] | 'records';

/** The path of an organization's section (for `records`, of the declared resource `resourceType`). */
export function organizationPath(
  organizationId: string,
  section: OrganizationSection = '',
  resourceType?: string,
): string {
  const base = `/organizations/${encodeURIComponent(organizationId)}`;
  if (section === 'records') return `${base}/records/${encodeURIComponent(resourceType ?? '')}`;
  return section ? `${base}/${section}` : base;
}

/** An organization page: which organization, which section, and for an assistant view or a resource, which one. */
export interface OrganizationPage {
  organizationId: string;
  section: OrganizationSection;
  viewRef?: string;
  /** For `records`: the declared resource's type. */
  resourceType?: string;
}

/**
 * Reads `/organizations/:id[/section]` and `/organizations/:id/views/:viewRef` (a declared assistant view);
 * `null` when the path is not one of an organization's pages.
 */
export function matchOrganizationPath(path: string): OrganizationPage | null {
  const view = /^\/organizations\/([^/]+)\/views\/([a-z0-9-]+)$/.exec(path);
  if (view?.[1] && view[2]) {
    const page = matchOrganizationPath(`/organizations/${view[1]}/assistant`);
    return page ? { ...page, viewRef: view[2] } : null;
  }
  const records = /^\/organizations\/([^/]+)\/records\/([a-z][a-z0-9_-]{0,62})$/.exec(path);
  if (records?.[1] && records[2]) {
    const page = matchOrganizationPath(`/organizations/${records[1]}`);
    return page ? { ...page, section: 'records', resourceType: records[2] } : null;
  }
  const match = /^\/organizations\/([^/]+)(?:\/([a-z-]+))?$/.exec(path);
  if (!match?.[1]) return null;
  const section = match[2] ?? '';
  const known = ORGANIZATION_SECTIONS.find((item) => item.section === section);
  if (!known) return null;
  let organizationId: string;
  try {
    organizationId = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return { organizationId, section: known.section };
}
