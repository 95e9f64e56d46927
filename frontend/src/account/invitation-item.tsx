import type { ReceivedInvitation } from '../api/invitations.client';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const ROLE_LABELS: Record<string, string> = {
  ORG_ADMIN: 'Administrator',
  ORG_MANAGER: 'Manager',
  ORG_MEMBER: 'Member',
};

/** A person-readable name for an organization role (unknown roles are shown as they are). */
export function roleLabel(role: string): string {
  return ROLE_LABELS[role] ?? role;
}

/** What is being done to one invitation, if anything. */
export type InvitationAction = 'accept' | 'decline' | null;

/** One open invitation: organization, role, who invited, expiry, and its Accept and Decline buttons. */
export function InvitationItem({
  invitation,
  action,
  disabled,
  onAnswer,
}: {
  invitation: ReceivedInvitation;
  action: InvitationAction;
  disabled: boolean;
  onAnswer: (invitation: ReceivedInvitation, answer: 'accept' | 'decline') => void;
}) {
  const name = invitation.organizationName;
  const headingId = `invitation-${invitation._id}-organization`;
  return (
    <li className="grant invitation" aria-labelledby={headingId} aria-busy={action !== null}>
      <h2 id={headingId} className="grant__client">
        {name}
      </h2>
      <dl className="facts">
        <div className="facts__row">
          <dt>Your role</dt>
          <dd>{roleLabel(invitation.role)}</dd>
        </div>
        {invitation.invitedBy ? (
          <div className="facts__row">
            <dt>Invited by</dt>
            <dd>{invitation.invitedBy}</dd>
          </div>
        ) : null}
        <div className="facts__row">
          <dt>Expires</dt>
          <dd>
            <time dateTime={invitation.expiresAt}>{dateFormat.format(new Date(invitation.expiresAt))}</time>
          </dd>
        </div>
      </dl>
      <div className="actions invitation__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={disabled}
          aria-label={`${action === 'accept' ? 'Accepting' : 'Accept'} invitation to ${name}`}
          onClick={() => onAnswer(invitation, 'accept')}
        >
          {action === 'accept' ? 'Accepting…' : 'Accept'}
        </button>
        <button
          type="button"
          className="button button--quiet"
          disabled={disabled}
          aria-label={`${action === 'decline' ? 'Declining' : 'Decline'} invitation to ${name}`}
          onClick={() => onAnswer(invitation, 'decline')}
        >
          {action === 'decline' ? 'Declining…' : 'Decline'}
        </button>
      </div>
    </li>
  );
}
