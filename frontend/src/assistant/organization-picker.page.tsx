import { useEffect, useState } from 'react';
import { FailureAlert, LoadingStatus } from '../page-states';
import { Link } from '../routing/link';
import { navigate } from '../routing/navigation';
import { useDocumentTitle } from '../routing/document-title';
import { loadSignedIn } from '../session/signed-in-load';
import { listOrganizations } from './assistant.client';
import type { Organization } from './assistant.contracts';
import { todoAssistantPath } from './todo-assistant.view';

type PickerState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; organizations: Organization[] };

/** `/assistant`: the assistant works inside an organization; one organization opens directly, several are listed. */
export function AssistantOrganizationPickerPage() {
  useDocumentTitle('Todo assistant');
  const [state, setState] = useState<PickerState>({ kind: 'loading' });

  useEffect(
    () =>
      loadSignedIn(
        listOrganizations,
        (organizations) => {
          const only = organizations.length === 1 ? organizations[0] : undefined;
          if (only) navigate(todoAssistantPath(only._id), { replace: true });
          else setState({ kind: 'ready', organizations });
        },
        (message) => setState({ kind: 'error', message }),
      ),
    [],
  );

  return (
    <section className="panel" aria-labelledby="assistant-picker-title" aria-busy={state.kind === 'loading'}>
      <h1 id="assistant-picker-title" className="page-title">
        Todo assistant
      </h1>
      {state.kind === 'loading' ? (
        <LoadingStatus>Loading your organizations…</LoadingStatus>
      ) : state.kind === 'error' ? (
        <FailureAlert summary="Your organizations could not be loaded." message={state.message} />
      ) : state.organizations.length === 0 ? (
        <div className="empty">
          <p className="muted">
            The assistant works on an organization’s todos; you are not a member of any organization yet.
          </p>
          <p>
            <Link to="/organizations" className="button button--primary">
              Create an organization
            </Link>{' '}
            <Link to="/account/invitations" className="button">
              See your invitations
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p className="muted">Choose the organization whose todos the assistant should work on.</p>
          <ul>
            {state.organizations.map((organization) => (
              <li key={organization._id}>
                <Link to={todoAssistantPath(organization._id)}>{organization.name || organization._id}</Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
