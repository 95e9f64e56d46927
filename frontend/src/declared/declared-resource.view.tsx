import { FailureAlert, LoadingStatus } from '../page-states';
import { NotFoundPage } from '../not-found.page';
import { DeclaredRecordsPage } from './declared-records.page';
import { HAND_WRITTEN_RESOURCE_PAGES, handWrittenPageAt, resourcePageKey } from './resource-pages';
import { useResourceDescriptions } from './use-resource-descriptions';

/** Which declared resource's page: by type (a generated page) or by the section of a hand-written one. */
export type DeclaredResourceAddress = { type: string } | { section: string };

/** The page of one declared resource of an organization: its hand-written page when it has one, else the generated one. */
export function DeclaredResourceView({
  organizationId,
  address,
  callerRole = null,
}: {
  organizationId: string;
  address: DeclaredResourceAddress;
  /** The person's role in the organization: hand-written pages offer only what it may do. */
  callerRole?: string | null;
}) {
  const { state, reload } = useResourceDescriptions(organizationId);
  const handWritten = 'section' in address ? handWrittenPageAt(address.section) : undefined;
  if (state.kind === 'loading') return <LoadingStatus>Loading…</LoadingStatus>;
  if (state.kind === 'error')
    return <FailureAlert summary="This page could not be loaded." message={state.message} onRetry={reload} />;
  const description = state.data.find((candidate) =>
    handWritten ? resourcePageKey(candidate) === handWritten[0] : 'type' in address && candidate.type === address.type,
  );
  if (!description) return <NotFoundPage />;
  const page = HAND_WRITTEN_RESOURCE_PAGES[resourcePageKey(description)];
  if (page) return <>{page.render({ organizationId, description, callerRole })}</>;
  return <DeclaredRecordsPage key={`${organizationId}:${description.type}`} description={description} />;
}
