import type { FlowsActors_ApprovalRequest } from '@wildo/shared-lib';
import { useEffect, useState } from 'react';
import { ApiError, describeFailure, isAbortError } from '../api/api.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import { ApprovalArguments } from './approval-arguments';
import { decideApproval, loadApprovals, type OperationApproval } from './approvals.client';

type PageState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; operations: OperationApproval[]; conversations: FlowsActors_ApprovalRequest[] };

/** Where a call came from, in people's words. */
const SURFACES: Record<string, string> = {
  rest: 'an app or script using the API',
  mcp: 'an AI client (MCP)',
  a2a: 'another agent (A2A)',
  tool: 'an assistant',
};

/** What the call will do to data, in people's words. */
const EFFECTS: Record<string, string> = {
  read: 'It only reads.',
  write: 'It changes data.',
  destructive: 'It removes data.',
  irreversible: 'It cannot be undone.',
};

/** `/approvals`: every call waiting for the signed-in person's decision, from every surface. */
export function ApprovalsPage() {
  useDocumentTitle('Approvals');
  const [state, setState] = useState<PageState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    const accessToken = readAccessToken();
    if (!accessToken) {
      redirectToLogin();
      return;
    }
    const controller = new AbortController();
    loadApprovals(accessToken, controller.signal).then(
      (loaded) => {
        if (!controller.signal.aborted) setState({ kind: 'ready', ...loaded });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        if (error instanceof ApiError && error.isUnauthenticated) redirectToLogin({ tokenRefused: true });
        else setState({ kind: 'error', message: describeFailure(error) });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const decide = async (approval: OperationApproval, decision: 'approve' | 'deny') => {
    const accessToken = readAccessToken();
    if (!accessToken) return redirectToLogin();
    setBusy(approval.id);
    setFailure(null);
    try {
      await decideApproval(accessToken, approval.id, decision);
      setNotice(
        decision === 'approve'
          ? `${approval.title} approved: it runs when ${SURFACES[approval.surface] ?? 'the caller'} sends it again.`
          : `${approval.title} denied: it will not run.`,
      );
      setAttempt((n) => n + 1);
    } catch (error) {
      if (error instanceof ApiError && error.isUnauthenticated) return redirectToLogin({ tokenRefused: true });
      setFailure(describeFailure(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="panel" aria-labelledby="approvals-title" aria-busy={state.kind === 'loading'}>
      <h1 id="approvals-title" className="page-title">
        Approvals
      </h1>
      <p className="muted">
        Actions that wait for you before they happen. Check what each one will send, then approve or deny it.
      </p>
      <p role="status" className="live">
        {notice}
      </p>
      {failure ? <FailureAlert summary="Your decision was not saved." message={failure} /> : null}
      {state.kind === 'loading' ? (
        <LoadingStatus>Loading what waits for you…</LoadingStatus>
      ) : state.kind === 'error' ? (
        <FailureAlert
          summary="Approvals could not be loaded."
          message={state.message}
          onRetry={() => setAttempt((n) => n + 1)}
        />
      ) : state.operations.length === 0 && state.conversations.length === 0 ? (
        <p className="muted">Nothing is waiting for your approval.</p>
      ) : (
        <ul className="approval-list">
          {state.operations.map((approval) => (
            <li key={approval.id} id={approval.id} className="card">
              <article aria-labelledby={`${approval.id}-title`}>
                <h2 id={`${approval.id}-title`} className="section-title">
                  {approval.title}
                </h2>
                <p>
                  Asked by {SURFACES[approval.surface] ?? approval.surface}. {EFFECTS[approval.effect] ?? ''}
                  {approval.description ? ` ${approval.description}` : ''}
                </p>
                {approval.recordId ? <p>On record {approval.recordId}.</p> : null}
                <ApprovalArguments values={approval.arguments} schema={approval.inputSchema} idPrefix={approval.id} />
                <p className="muted">Expires {new Date(approval.expiresAt).toLocaleString()}.</p>
                <div className="actions">
                  <button
                    type="button"
                    className="button"
                    disabled={busy !== null}
                    onClick={() => void decide(approval, 'approve')}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    className="button button--quiet"
                    disabled={busy !== null}
                    onClick={() => void decide(approval, 'deny')}
                  >
                    Deny
                  </button>
                </div>
              </article>
            </li>
          ))}
          {state.conversations.map((approval) => (
            <li key={approval.approvalId} className="card">
              <article aria-labelledby={`${approval.approvalId}-title`}>
                <h2 id={`${approval.approvalId}-title`} className="section-title">
                  {approval.functionRef}
                </h2>
                <p>Asked by an assistant in one of your conversations. Decide it in that conversation.</p>
                <ApprovalArguments values={approval.arguments} schema={null} idPrefix={approval.approvalId} />
                <p className="muted">Expires {new Date(approval.expiresAt).toLocaleString()}.</p>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
