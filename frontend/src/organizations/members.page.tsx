import { useState, type FormEvent } from 'react';
import {
  changeMemberRole,
  leaveOrganization,
  listMembers,
  listSentInvitations,
  removeMember,
  revokeInvitation,
  sendInvitation,
  type MemberSummary,
  type SentInvitationSummary,
} from '../api/organizations.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { navigate } from '../routing/navigation';
import { storeAccessToken } from '../session/access-token.store';
import { refreshSessionInfo, type SessionInfo } from '../session/use-session-info';
import { FailureAlertOf } from '../ui/failure-alert-of';
import { fieldProblemsOf, LiveStatus, SelectField, TextField, type FieldProblems } from '../ui/form-fields';
import { emailProblem } from '../ui/people-words';
import { useAction } from '../ui/use-action';
import { useSignedInData, type SignedInData } from '../ui/use-signed-in-data';
import { atLeast, roleName, rolesWithin } from './roles';

const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked', 'expired'] as const;

/** `/organizations/:id`: members and their roles, invitations (admins), and leaving. */
export function MembersPage({ organizationId, session }: { organizationId: string; session: SessionInfo | null }) {
  const organization = session?.organizations.find((item) => item._id === organizationId);
  useDocumentTitle(organization ? `${organization.name} · Members` : 'Members');
  const isAdmin = atLeast(organization?.role, 'ORG_ADMIN');
  // Managers change roles too, within their own: the server checks both the member's role and the new one.
  const mayChangeRoles = atLeast(organization?.role, 'ORG_MANAGER');
  const members = useSignedInData(`members:${organizationId}`, (token, signal) =>
    listMembers(organizationId, token, signal),
  );
  const invitations = useSignedInData(`invitations:${organizationId}:${isAdmin}`, (token, signal) =>
    isAdmin ? listSentInvitations(organizationId, token, signal) : Promise.resolve([]),
  );
  const action = useAction();
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [invited, setInvited] = useState<string | null>(null);
  const admins = members.state.kind === 'ready' ? members.state.data.filter((m) => m.role === 'ORG_ADMIN') : [];
  // The organization keeps at least one Admin: say so before the click rather than refuse after it.
  const onlyAdmin = organization?.role === 'ORG_ADMIN' && admins.length === 1;

  const leave = () =>
    void action.run('You did not leave the organization.', async (token) => {
      const fresh = await leaveOrganization(organizationId, token);
      if (fresh) storeAccessToken(fresh);
      refreshSessionInfo();
      navigate('/organizations');
      return `You left ${organization?.name ?? 'the organization'}.`;
    });

  return (
    <section className="panel" aria-labelledby="members-title">
      <h1 id="members-title" className="page-title">
        {organization ? organization.name : 'Organization'}
      </h1>
      <LiveStatus message={action.message} />
      {action.failure ? <FailureAlertOf failure={action.failure} /> : null}
      <h2 className="section-title">Members</h2>
      {members.state.kind === 'loading' ? (
        <LoadingStatus>Loading members…</LoadingStatus>
      ) : members.state.kind === 'error' ? (
        <FailureAlert summary="The members could not be loaded." message={members.state.message} />
      ) : (
        <ul className="grant-list">
          {members.state.data.map((member) => (
            <MemberRow
              key={member.userId}
              member={member}
              editable={mayChangeRoles && member.userId !== session?.userId}
              removable={isAdmin && member.userId !== session?.userId}
              ceiling={organization?.role}
              busy={action.busy}
              onRemove={() =>
                void action
                  .run(
                    `${member.email} was not removed.`,
                    async (token) => {
                      await removeMember(organizationId, member.userId, token);
                      return `${member.displayName ?? member.email} was removed from ${organization?.name ?? 'the organization'}.`;
                    },
                    { requiredRole: 'ORG_ADMIN' },
                  )
                  .then(members.reload)
              }
              onChangeRole={(role) =>
                void action
                  .run(
                    `The role of ${member.email} was not changed.`,
                    async (token) => {
                      await changeMemberRole(organizationId, member.userId, role, token);
                      return `${member.email} is now ${roleName(role)}.`;
                    },
                    { requiredRole: 'ORG_MANAGER' },
                  )
                  .then(members.reload)
              }
            />
          ))}
        </ul>
      )}
      {isAdmin ? (
        <InvitationsSection
          organizationId={organizationId}
          ceiling={organization?.role}
          invitations={invitations.state}
          action={action}
          onChanged={invitations.reload}
          onInvited={setInvited}
        />
      ) : null}
      {invited ? <InvitationLink email={invited} /> : null}
      <h2 className="section-title">Leave</h2>
      {onlyAdmin ? (
        <p className="muted">
          You are the only Admin of {organization?.name ?? 'this organization'}. An organization keeps at least one
          Admin: make another member Admin before you leave.
        </p>
      ) : confirmLeave ? (
        <div className="actions">
          <button type="button" className="button button--danger" disabled={action.busy} onClick={leave}>
            Yes, leave {organization?.name ?? 'this organization'}
          </button>
          <button type="button" className="button" onClick={() => setConfirmLeave(false)}>
            Stay
          </button>
        </div>
      ) : (
        <button type="button" className="button" onClick={() => setConfirmLeave(true)}>
          Leave organization
        </button>
      )}
    </section>
  );
}

/** After an invitation: the link the invited person opens, to pass on by another channel too. */
function InvitationLink({ email }: { email: string }) {
  const link = `${window.location.origin}/account/invitations`;
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice">
      <p>
        We mailed {email} an invitation. They can also open this link, signed in with that address (or after creating an
        account with it):
      </p>
      <p className="copy-line">
        <code>{link}</code>{' '}
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard?.writeText(link).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          Copy invitation link
        </button>
      </p>
      <p role="status" className="live">
        {copied ? 'Invitation link copied.' : ''}
      </p>
    </div>
  );
}

function MemberRow({
  member,
  editable,
  removable,
  ceiling,
  busy,
  onChangeRole,
  onRemove,
}: {
  member: MemberSummary;
  editable: boolean;
  removable: boolean;
  ceiling: string | undefined;
  busy: boolean;
  onChangeRole: (role: string) => void;
  onRemove: () => void;
}) {
  const [role, setRole] = useState(member.role);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const who = member.displayName ?? member.email;
  const offered = rolesWithin(ceiling);
  return (
    <li className="record">
      <p className="record__title">{member.displayName ?? member.email}</p>
      <p className="muted">
        {member.email} · {roleName(member.role)}
      </p>
      {editable && offered.includes(member.role) ? (
        <form
          className="form form--inline"
          onSubmit={(event) => {
            event.preventDefault();
            onChangeRole(role);
          }}
        >
          <SelectField
            label={`Role of ${member.email}`}
            value={role}
            onChange={setRole}
            options={offered.map((value) => [value, roleName(value)] as const)}
          />
          <button type="submit" className="button" disabled={busy || role === member.role}>
            Save role
          </button>
        </form>
      ) : null}
      {!removable ? null : confirmRemove ? (
        <div className="actions">
          <button type="button" className="button button--danger" disabled={busy} onClick={onRemove}>
            Yes, remove {who}
          </button>
          <button type="button" className="button" onClick={() => setConfirmRemove(false)}>
            Keep {who}
          </button>
        </div>
      ) : (
        <div className="actions">
          <button type="button" className="button" onClick={() => setConfirmRemove(true)}>
            Remove {who}
          </button>
        </div>
      )}
    </li>
  );
}

function InvitationsSection({
  organizationId,
  ceiling,
  invitations,
  action,
  onChanged,
  onInvited,
}: {
  organizationId: string;
  ceiling: string | undefined;
  invitations: SignedInData<SentInvitationSummary[]>;
  action: ReturnType<typeof useAction>;
  onChanged: () => void;
  onInvited: (email: string) => void;
}) {
  const offered = rolesWithin(ceiling);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('ORG_MEMBER');
  const [problems, setProblems] = useState<FieldProblems>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const addressProblem = emailProblem(email);
    setProblems(addressProblem ? { email: addressProblem } : {});
    if (addressProblem) return;
    const address = email.trim();
    const failed = await action.run(
      'The invitation was not sent.',
      async (token) => {
        await sendInvitation(organizationId, address, role, token);
        return `Invitation sent to ${address}.`;
      },
      { requiredRole: 'ORG_ADMIN' },
    );
    if (failed) {
      setProblems(fieldProblemsOf(failed));
      return;
    }
    onInvited(address);
    setEmail('');
    onChanged();
  };

  return (
    <>
      <h2 className="section-title">Invite someone</h2>
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField label="Email to invite" type="email" value={email} onChange={setEmail} error={problems.email} />
        <SelectField
          label="Role"
          value={role}
          onChange={setRole}
          options={offered.map((value) => [value, roleName(value)] as const)}
          error={problems.role}
        />
        <button type="submit" className="button button--primary" disabled={action.busy}>
          Send invitation
        </button>
      </form>
      <h2 className="section-title">Invitations sent</h2>
      {invitations.kind === 'loading' ? (
        <LoadingStatus>Loading invitations…</LoadingStatus>
      ) : invitations.kind === 'error' ? (
        <FailureAlert summary="The invitations could not be loaded." message={invitations.message} />
      ) : (
        INVITATION_STATUSES.map((status) => {
          const group = invitations.data.filter((invitation) => invitation.status === status);
          return (
            <div key={status}>
              <h3 className="subsection-title">
                {status[0]?.toUpperCase()}
                {status.slice(1)} ({group.length})
              </h3>
              {group.length === 0 ? null : (
                <ul className="plain-list">
                  {group.map((invitation) => (
                    <li key={invitation._id}>
                      {invitation.email} · {roleName(invitation.role)}
                      {status === 'pending' ? (
                        <button
                          type="button"
                          className="button button--quiet"
                          disabled={action.busy}
                          onClick={() =>
                            void action
                              .run(
                                'The invitation was not revoked.',
                                async (token) => {
                                  await revokeInvitation(organizationId, invitation._id, token);
                                  return `Invitation to ${invitation.email} revoked.`;
                                },
                                { requiredRole: 'ORG_ADMIN' },
                              )
                              .then(onChanged)
                          }
                        >
                          Revoke invitation to {invitation.email}
                        </button>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          );
        })
      )}
    </>
  );
}
