import type { FlowsActors_ApprovalRequest } from '@wildo/shared-lib';
import { useEffect, useState } from 'react';
import { ApiError, describeFailure, isAbortError } from '../api/api.client';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import { DateTime } from './approval-card';
import { listPendingApprovals } from './assistant.client';

type QueueState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; approvals: FlowsActors_ApprovalRequest[] };

/** The person's pending approvals across conversations; each can be opened for a decision. Reloads when `reloadKey` changes. */
export function ApprovalsQueue({
  reloadKey,
  currentApprovalId,
  disabled,
  onReview,
}: {
  reloadKey: number;
  currentApprovalId: string | null;
  disabled: boolean;
  onReview: (approval: FlowsActors_ApprovalRequest) => void;
}) {
  const [state, setState] = useState<QueueState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const accessToken = readAccessToken();
    if (!accessToken) return;
    const controller = new AbortController();
    listPendingApprovals(accessToken, controller.signal).then(
      (approvals) => {
        if (!controller.signal.aborted) setState({ kind: 'ready', approvals });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        if (error instanceof ApiError && error.isUnauthenticated) redirectToLogin({ tokenRefused: true });
        else setState({ kind: 'error', message: describeFailure(error) });
      },
    );
    return () => controller.abort();
  }, [reloadKey, attempt]);

  return (
    <section className="approval-queue" aria-labelledby="approval-queue-title">
      <h2 id="approval-queue-title" className="section-title">
        Pending approvals
      </h2>
      {state.kind === 'loading' ? (
        <p className="muted">Loading pending approvals…</p>
      ) : state.kind === 'error' ? (
        <div role="alert" className="status status--error">
          <p className="status__summary">Pending approvals could not be loaded.</p>
          <p className="status__detail">{state.message}</p>
          <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      ) : state.approvals.length === 0 ? (
        <p className="muted">Nothing is waiting for your approval.</p>
      ) : (
        <ul className="approval-queue__list">
          {state.approvals.map((approval) => (
            <li key={approval.approvalId} className="approval-queue__item">
              <code>{approval.functionRef}</code>
              <span className="muted">
                {' '}
                expires <DateTime iso={approval.expiresAt} />
              </span>{' '}
              {approval.approvalId === currentApprovalId ? (
                <span className="muted">(shown above)</span>
              ) : (
                <button
                  type="button"
                  className="button button--quiet"
                  disabled={disabled}
                  aria-label={`Review ${approval.functionRef} request`}
                  onClick={() => onReview(approval)}
                >
                  Review
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
