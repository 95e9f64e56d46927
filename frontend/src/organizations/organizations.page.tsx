import { useState, type FormEvent } from 'react';
import { describeFailure } from '../api/api.client';
import { createOrganization } from '../api/organizations.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { Link } from '../routing/link';
import { navigate } from '../routing/navigation';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import { refreshSessionInfo, type SessionInfo } from '../session/use-session-info';
import { fieldProblemsOf, TextField, type FieldProblems } from '../ui/form-fields';
import { organizationPath } from './organization-paths';
import { roleName } from './roles';

/** `/organizations`: the person's organizations (open one to switch to it) and a form to create one. */
export function OrganizationsPage({ session }: { session: SessionInfo | null }) {
  useDocumentTitle('Organizations');
  const [name, setName] = useState('');
  const [problems, setProblems] = useState<FieldProblems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const accessToken = readAccessToken();
    if (!accessToken) return redirectToLogin();
    if (busy) return;
    setFailure(null);
    if (!name.trim()) {
      setProblems({ name: 'Give the organization a name.' });
      return;
    }
    setBusy(true);
    try {
      const created = await createOrganization(name.trim(), accessToken);
      refreshSessionInfo();
      navigate(organizationPath(created._id));
    } catch (error) {
      setProblems(fieldProblemsOf(error));
      setFailure(describeFailure(error));
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="organizations-title">
      <h1 id="organizations-title" className="page-title">
        Organizations
      </h1>
      {session === null ? (
        <LoadingStatus>Loading your organizations…</LoadingStatus>
      ) : session.organizations.length === 0 ? (
        <p className="muted">
          You are not a member of any organization yet. Create one below, or accept an invitation.
        </p>
      ) : (
        <ul className="grant-list">
          {session.organizations.map((organization) => (
            <li key={organization._id} className="record">
              <h2 className="record__title">
                <Link className="tap-link" to={organizationPath(organization._id)}>
                  {organization.name}
                </Link>
              </h2>
              <p className="muted">Your role: {roleName(organization.role)}</p>
            </li>
          ))}
        </ul>
      )}
      <h2 className="section-title">Create an organization</h2>
      <form className="form" noValidate aria-busy={busy} onSubmit={(event) => void onSubmit(event)}>
        {failure ? <FailureAlert summary="The organization was not created." message={failure} /> : null}
        <TextField label="Organization name" name="name" value={name} onChange={setName} error={problems.name} />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create organization'}
        </button>
      </form>
      <p className="muted">
        Invited somewhere?{' '}
        <Link className="tap-link" to="/account/invitations">
          See your invitations
        </Link>
        .
      </p>
    </section>
  );
}
