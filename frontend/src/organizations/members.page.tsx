import { useState, type FormEvent } from 'react';
import {
  changeMemberRole,
  leaveOrganization,
  listMembers,
  listSentInvitations,
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
              ceiling={organization?.role}
              busy={action.busy}
              onChangeRole={(role) =>
                void action
                  .run(`The role of ${member.email} was not changed.`, async (token) => {
                    await changeMemberRole(organizationId, member.userId, role, token);
                    return `${member.email} is now ${roleName(role)}.`;
                  })
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
        />
      ) : null}
      <h2 className="section-title">Leave</h2>
      {confirmLeave ? (
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

function MemberRow({
  member,
  editable,
  ceiling,
  busy,
  onChangeRole,
}: {
  member: MemberSummary;
  editable: boolean;
  ceiling: string | undefined;
  busy: boolean;
  onChangeRole: (role: string) => void;
}) {
  const [role, setRole] = useState(member.role);
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
    </li>
  );
}

function InvitationsSection({
  organizationId,
  ceiling,
  invitations,
  action,
  onChanged,
}: {
  organizationId: string;
  ceiling: string | undefined;
  invitations: SignedInData<SentInvitationSummary[]>;
  action: ReturnType<typeof useAction>;
  onChanged: () => void;
}) {
  const offered = rolesWithin(ceiling);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('ORG_MEMBER');
  const [problems, setProblems] = useState<FieldProblems>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblems({});
    const failed = await action.run('The invitation was not sent.', async (token) => {
      await sendInvitation(organizationId, email.trim(), role, token);
      return `Invitation sent to ${email.trim()}.`;
    });
    if (failed) {
      setProblems(fieldProblemsOf(failed));
      return;
    }
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
                              .run('The invitation was not revoked.', async (token) => {
                                await revokeInvitation(organizationId, invitation._id, token);
                                return `Invitation to ${invitation.email} revoked.`;
                              })
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
