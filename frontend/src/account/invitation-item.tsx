import { roleName } from '../organizations/roles';
import { When } from '../ui/dates';
import type { ReceivedInvitation } from '../api/invitations.client';

/** A person-readable name for an organization role (unknown roles are shown as they are). */
export function roleLabel(role: string): string {
  return roleName(role);
}

/** What is being done to one invitation, if anything. */
export type InvitationAction = 'accept' | 'decline' | null;

const ANSWERS = [
  { answer: 'accept', label: 'Accept', busyLabel: 'Accepting', className: 'button button--primary' },
  { answer: 'decline', label: 'Decline', busyLabel: 'Declining', className: 'button button--quiet' },
] as const;

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
            <When iso={invitation.expiresAt} dateOnly />
          </dd>
        </div>
      </dl>
      <div className="actions invitation__actions">
        {ANSWERS.map(({ answer, label, busyLabel, className }) => (
          <button
            key={answer}
            type="button"
            className={className}
            disabled={disabled}
            aria-label={`${action === answer ? busyLabel : label} invitation to ${name}`}
            onClick={() => onAnswer(invitation, answer)}
          >
            {action === answer ? `${busyLabel}…` : label}
          </button>
        ))}
      </div>
    </li>
  );
}
