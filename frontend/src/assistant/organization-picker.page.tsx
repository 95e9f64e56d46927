import { useEffect, useState } from 'react';
import { ApiError, describeFailure, isAbortError } from '../api/api.client';
import { Link } from '../routing/link';
import { navigate } from '../routing/navigation';
import { useDocumentTitle } from '../routing/document-title';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import { listOrganizations } from './assistant.client';
import type { Organization } from './assistant.contracts';
import { todoAssistantPath } from './todo-assistant.view';

type PickerState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; organizations: Organization[] };

/** `/assistant`: the assistant works inside an organization; one organization opens directly, several are listed. */
export function AssistantOrganizationPickerPage() {
  useDocumentTitle('Todo assistant');
  const [state, setState] = useState<PickerState>({ kind: 'loading' });

  useEffect(() => {
    const accessToken = readAccessToken();
    if (!accessToken) {
      redirectToLogin();
      return;
    }
    const controller = new AbortController();
    listOrganizations(accessToken, controller.signal).then(
      (organizations) => {
        if (controller.signal.aborted) return;
        if (organizations.length === 1) navigate(todoAssistantPath(organizations[0]!._id), { replace: true });
        else setState({ kind: 'ready', organizations });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        if (error instanceof ApiError && error.isUnauthenticated) redirectToLogin({ tokenRefused: true });
        else setState({ kind: 'error', message: describeFailure(error) });
      },
    );
    return () => controller.abort();
  }, []);

  return (
    <section className="panel" aria-labelledby="assistant-picker-title" aria-busy={state.kind === 'loading'}>
      <h1 id="assistant-picker-title" className="page-title">
        Todo assistant
      </h1>
      {state.kind === 'loading' ? (
        <p role="status" className="muted">
          Loading your organizations…
        </p>
      ) : state.kind === 'error' ? (
        <div role="alert" className="status status--error">
          <p className="status__summary">Your organizations could not be loaded.</p>
          <p className="status__detail">{state.message}</p>
        </div>
      ) : state.organizations.length === 0 ? (
        <p className="muted">The assistant works on an organization’s todos; you are not a member of any organization yet.</p>
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
