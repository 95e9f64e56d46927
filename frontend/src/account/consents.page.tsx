import { useRef, useState } from 'react';
import { ApiError, describeFailure } from '../api/api.client';
import { withdrawConsentGrant, type ConsentGrantRecord } from '../api/consent-grants.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import { ConsentGrantItem } from './consent-grant-item';
import { useConsentGrants, type ConsentGrantsState } from './use-consent-grants';

type Withdrawal =
  | { kind: 'idle' }
  | { kind: 'pending'; grantId: string }
  | { kind: 'done'; clientName: string }
  | { kind: 'failed'; message: string };

/** `/account/consents`: the applications the person allowed to skip the consent page, each withdrawable. */
export function ConsentsPage() {
  useDocumentTitle('Remembered consents');
  const { state, reload, loadMore } = useConsentGrants();
  const [withdrawal, setWithdrawal] = useState<Withdrawal>({ kind: 'idle' });
  const titleRef = useRef<HTMLHeadingElement>(null);

  const withdraw = async (grant: ConsentGrantRecord) => {
    if (withdrawal.kind === 'pending') return;
    const accessToken = readAccessToken();
    if (!accessToken) {
      redirectToLogin();
      return;
    }
    setWithdrawal({ kind: 'pending', grantId: grant._id });
    try {
      await withdrawConsentGrant(grant._id, accessToken);
      setWithdrawal({ kind: 'done', clientName: grant.clientName || grant.clientId });
      // The focused Withdraw button is about to disappear with its row; keep focus on the page.
      titleRef.current?.focus();
      reload();
    } catch (error) {
      if (error instanceof ApiError && error.isUnauthenticated) {
        redirectToLogin({ tokenRefused: true });
        return;
      }
      setWithdrawal({ kind: 'failed', message: describeFailure(error) });
    }
  };

  const busy = state.kind === 'loading' || (state.kind === 'ready' && state.refreshing);
  return (
    <section className="panel" aria-labelledby="consents-title" aria-busy={busy}>
      <h1 id="consents-title" ref={titleRef} tabIndex={-1} className="page-title">
        Remembered consents
      </h1>
      <p className="muted">
        Applications you allowed to skip the consent page. Withdraw one and it must ask you again next time; access it
        already received is not cancelled.
      </p>
      <p role="status" className="live">
        {withdrawal.kind === 'done' && !busy ? `Consent for ${withdrawal.clientName} withdrawn.` : ''}
      </p>
      {withdrawal.kind === 'failed' ? (
        <FailureAlert summary="The consent was not withdrawn." message={withdrawal.message} />
      ) : null}
      <GrantsBody
        state={state}
        withdrawal={withdrawal}
        onWithdraw={(grant) => void withdraw(grant)}
        onRetry={reload}
        onLoadMore={loadMore}
      />
    </section>
  );
}

function GrantsBody({
  state,
  withdrawal,
  onWithdraw,
  onRetry,
  onLoadMore,
}: {
  state: ConsentGrantsState;
  withdrawal: Withdrawal;
  onWithdraw: (grant: ConsentGrantRecord) => void;
  onRetry: () => void;
  onLoadMore: () => void;
}) {
  switch (state.kind) {
    case 'loading':
      return <LoadingStatus>Loading your remembered consents…</LoadingStatus>;
    case 'error':
      return (
        <FailureAlert
          summary="Your remembered consents could not be loaded."
          message={state.message}
          onRetry={onRetry}
        />
      );
    case 'ready':
      if (state.grants.length === 0) {
        return (
          <div className="empty">
            <p className="empty__title">No remembered consents.</p>
            <p className="muted">
              When you tick “Remember this decision” while approving an application, it appears here.
            </p>
          </div>
        );
      }
      return (
        <>
          <ul className="grant-list">
            {state.grants.map((grant) => (
              <ConsentGrantItem
                key={grant._id}
                grant={grant}
                withdrawing={withdrawal.kind === 'pending' && withdrawal.grantId === grant._id}
                disabled={withdrawal.kind === 'pending' || state.refreshing}
                onWithdraw={onWithdraw}
              />
            ))}
          </ul>
          {state.nextCursor ? (
            <button type="button" className="button button--block" disabled={state.refreshing} onClick={onLoadMore}>
              Show more
            </button>
          ) : null}
        </>
      );
  }
}
