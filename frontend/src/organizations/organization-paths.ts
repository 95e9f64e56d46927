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

/** A section of an organization's pages (`''` is its members page). */
export type OrganizationSection = (typeof ORGANIZATION_SECTIONS)[number]['section'];

/** The path of an organization's section. */
export function organizationPath(organizationId: string, section: OrganizationSection = ''): string {
  const base = `/organizations/${encodeURIComponent(organizationId)}`;
  return section ? `${base}/${section}` : base;
}

/** Reads `/organizations/:id[/section]`; `null` when the path is not one of an organization's pages. */
export function matchOrganizationPath(path: string): { organizationId: string; section: OrganizationSection } | null {
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
