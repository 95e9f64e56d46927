import { useRef, useState } from 'react';
import { ApiError, describeFailure } from '../api/api.client';
import { acceptInvitation, declineInvitation, type ReceivedInvitation } from '../api/invitations.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { organizationPath } from '../organizations/organization-paths';
import { useDocumentTitle } from '../routing/document-title';
import { Link } from '../routing/link';
import { readAccessToken, storeAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import { refreshSessionInfo } from '../session/use-session-info';
import { ConfirmAddressNotice } from './confirm-address-notice';
import { InvitationItem, roleLabel } from './invitation-item';
import { useInvitations, type InvitationsState } from './use-invitations';

type Answering =
  | { kind: 'idle' }
  | { kind: 'pending'; invitationId: string; answer: 'accept' | 'decline' }
  | { kind: 'done'; message: string; joined?: { id: string; name: string } }
  | { kind: 'failed'; summary: string; message: string };

/** `/account/invitations`: the organizations that invited the person, each to accept or decline. */
export function InvitationsPage() {
  useDocumentTitle('Invitations');
  const { state, reload } = useInvitations();
  const [answering, setAnswering] = useState<Answering>({ kind: 'idle' });
  const titleRef = useRef<HTMLHeadingElement>(null);

  const answer = async (invitation: ReceivedInvitation, choice: 'accept' | 'decline') => {
    if (answering.kind === 'pending') return;
    const accessToken = readAccessToken();
    if (!accessToken) {
      redirectToLogin();
      return;
    }
    setAnswering({ kind: 'pending', invitationId: invitation._id, answer: choice });
    try {
      let message: string;
      let joined: { id: string; name: string } | undefined;
      if (choice === 'accept') {
        const accepted = await acceptInvitation(invitation._id, accessToken);
        // Joining changed what the person may do, so the old token stopped working: keep the fresh one.
        storeAccessToken(accepted.accessToken);
        message = `You joined ${accepted.organization.name} as ${roleLabel(accepted.organization.role)}.`;
        joined = { id: accepted.organization._id, name: accepted.organization.name };
        refreshSessionInfo();
      } else {
        await declineInvitation(invitation._id, accessToken);
        message = `You declined the invitation to ${invitation.organizationName}.`;
      }
      setAnswering({ kind: 'done', message, ...(joined ? { joined } : {}) });
      // The focused button is about to disappear with its row; keep focus on the page.
      titleRef.current?.focus();
    } catch (error) {
      if (error instanceof ApiError && error.isUnauthenticated) {
        redirectToLogin({ tokenRefused: true });
        return;
      }
      const summary = choice === 'accept' ? 'The invitation was not accepted.' : 'The invitation was not declined.';
      setAnswering({ kind: 'failed', summary, message: describeFailure(error) });
    }
    // Answered or no longer open: either way the list changed.
    reload();
  };

  const busy = state.kind === 'loading' || (state.kind === 'ready' && state.refreshing);
  return (
    <section className="panel" aria-labelledby="invitations-title" aria-busy={busy}>
      <h1 id="invitations-title" ref={titleRef} tabIndex={-1} className="page-title">
        Invitations
      </h1>
      <p className="muted">
        Organizations that invited you. Nobody can add you to an organization: you join only by accepting here, and you
        can leave later.
      </p>
      <ConfirmAddressNotice />
      <p role="status" className="live">
        {answering.kind === 'done' && !busy ? answering.message : ''}
      </p>
      {answering.kind === 'done' && answering.joined ? (
        <p>
          <Link className="button button--primary" to={organizationPath(answering.joined.id)}>
            Open {answering.joined.name}
          </Link>
        </p>
      ) : null}
      {answering.kind === 'failed' ? <FailureAlert summary={answering.summary} message={answering.message} /> : null}
      <InvitationsBody
        state={state}
        answering={answering}
        onAnswer={(invitation, choice) => void answer(invitation, choice)}
        onRetry={reload}
      />
    </section>
  );
}

function InvitationsBody({
  state,
  answering,
  onAnswer,
  onRetry,
}: {
  state: InvitationsState;
  answering: Answering;
  onAnswer: (invitation: ReceivedInvitation, choice: 'accept' | 'decline') => void;
  onRetry: () => void;
}) {
  switch (state.kind) {
    case 'loading':
      return <LoadingStatus>Loading your invitations…</LoadingStatus>;
    case 'error':
      return <FailureAlert summary="Your invitations could not be loaded." message={state.message} onRetry={onRetry} />;
    case 'ready':
      if (state.invitations.length === 0) {
        return (
          <div className="empty">
            <p className="empty__title">No open invitations.</p>
            <p className="muted">
              When an organization’s administrator invites your email address, the invitation appears here.
            </p>
          </div>
        );
      }
      return (
        <ul className="grant-list">
          {state.invitations.map((invitation) => (
            <InvitationItem
              key={invitation._id}
              invitation={invitation}
              action={
                answering.kind === 'pending' && answering.invitationId === invitation._id ? answering.answer : null
              }
              disabled={answering.kind === 'pending' || state.refreshing}
              onAnswer={onAnswer}
            />
          ))}
        </ul>
      );
  }
}
