import type { ResourceDescription } from '@wildo/shared-lib';
import type { ReactNode } from 'react';
import { RecordsPage } from '../records/records.page';
import { TODOS_KIND } from '../records/record-kinds';
import { KnowledgePage } from '../knowledge/knowledge.page';

/** A hand-written page that replaces the generated one of a declared resource. */
export interface HandWrittenResourcePage {
  /** Where it lives below the organization: `/organizations/:id/<section>`. */
  section: string;
  /** Its link in the organization's navigation. */
  label: string;
  render(props: { organizationId: string; description: ResourceDescription; callerRole: string | null }): ReactNode;
}

/** The key of a resource in {@link HAND_WRITTEN_RESOURCE_PAGES}: `<module>/<type>` (another module's type of the same name keeps the generated page). */
export function resourcePageKey(description: Pick<ResourceDescription, 'module' | 'type'>): string {
  return `${description.module}/${description.type}`;
}

/**
 * Resources whose page is written by hand, by `<module>/<type>`; every other declared resource gets the page
 * generated from its description. Add an entry to give a resource a page of its own.
 */
export const HAND_WRITTEN_RESOURCE_PAGES: Readonly<Record<string, HandWrittenResourcePage>> = {
  'tasks-manager/todos': {
    section: 'todos',
    label: 'Todos',
    render: ({ organizationId, callerRole }) => (
      <RecordsPage key={organizationId} organizationId={organizationId} kind={TODOS_KIND} callerRole={callerRole} />
    ),
  },
  'tasks-manager/knowledge-documents': {
    section: 'documents',
    label: 'Documents',
    render: ({ organizationId, callerRole }) => (
      <KnowledgePage key={organizationId} organizationId={organizationId} callerRole={callerRole} />
    ),
  },
};

/** The hand-written page of a section, if one is registered for it. */
export function handWrittenPageAt(section: string): [string, HandWrittenResourcePage] | undefined {
  return Object.entries(HAND_WRITTEN_RESOURCE_PAGES).find(([, page]) => page.section === section);
}
