import type { ResourceDescription } from '@wildo/shared-lib';
import { HAND_WRITTEN_RESOURCE_PAGES, resourcePageKey } from './resource-pages';
import { hasPage, useResourceDescriptions } from './use-resource-descriptions';

/** One declared resource's link in an organization's navigation. */
export interface DeclaredNavItem {
  /** The hand-written page's section, or `records` for the generated page. */
  section: string;
  /** For `records`: the resource's type. */
  resourceType?: string;
  label: string;
}

/** The navigation items of the declared resources this person may list: the hand-written page's, else the generated one's. */
export function declaredNavItems(descriptions: readonly ResourceDescription[]): DeclaredNavItem[] {
  return descriptions.filter(hasPage).map((description) => {
    const page = HAND_WRITTEN_RESOURCE_PAGES[resourcePageKey(description)];
    return page
      ? { section: page.section, label: page.label }
      : { section: 'records', resourceType: description.type, label: description.displayName };
  });
}

/** The organization's declared resources as navigation items (none while they load or when they cannot be read). */
export function useDeclaredNavItems(organizationId: string): DeclaredNavItem[] {
  const { state } = useResourceDescriptions(organizationId);
  return state.kind === 'ready' ? declaredNavItems(state.data) : [];
}

/** Whether a section belongs to a declared resource (its link comes from the descriptions, not the fixed list). */
export function isDeclaredSection(section: string): boolean {
  return Object.values(HAND_WRITTEN_RESOURCE_PAGES).some((page) => page.section === section);
}
