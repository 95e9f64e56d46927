import { fetchTokenUsage } from '../api/budgets.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { useSignedInData } from '../ui/use-signed-in-data';
import { UsageSummary } from './usage-summary';

/** `/organizations/:id/usage`: the organization's token consumption this UTC month against its allowance. */
export function UsagePage({ organizationId }: { organizationId: string }) {
  useDocumentTitle('Usage');
  const usage = useSignedInData(`usage:${organizationId}`, (accessToken, signal) =>
    fetchTokenUsage(organizationId, accessToken, signal),
  );
  return (
    <section className="panel" aria-labelledby="usage-title">
      <h1 id="usage-title" className="page-title">
        Assistant usage
      </h1>
      <p className="muted">Tokens the organization’s assistant turns used, counted per UTC calendar month.</p>
      {usage.state.kind === 'loading' ? (
        <LoadingStatus>Loading usage…</LoadingStatus>
      ) : usage.state.kind === 'error' ? (
        <FailureAlert summary="The usage could not be loaded." message={usage.state.message} onRetry={usage.reload} />
      ) : (
        <UsageSummary usage={usage.state.data} />
      )}
    </section>
  );
}
