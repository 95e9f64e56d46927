import { useDocumentTitle } from '../routing/document-title';
import { useCurrentUser } from '../session/use-current-user';
import { ConsentPrompt } from './consent-prompt';
import { useAuthorizationPrompt } from './use-authorization-prompt';

/** `/oauth/authorize?...`: the consent page an OAuth client sends the person to (the guide's `Auth_OAuthConsent`). */
export function Auth_OAuthConsent({ search }: { search: string }) {
  const { state, retry } = useAuthorizationPrompt(search);
  const user = useCurrentUser();
  useDocumentTitle(
    state.kind === 'prompt' ? `Authorize ${state.prompt.client.client_name}` : 'Authorize an application',
  );

  switch (state.kind) {
    case 'loading':
      return (
        <section className="panel consent" aria-busy="true" aria-labelledby="consent-loading-title">
          <h1 id="consent-loading-title" className="page-title">
            Authorize an application
          </h1>
          <p role="status" className="muted">
            Reading the application's request…
          </p>
        </section>
      );
    case 'leaving':
      return (
        <section className="panel consent" aria-busy="true" aria-labelledby="consent-leaving-title">
          <h1 id="consent-leaving-title" className="page-title">
            Authorize an application
          </h1>
          <p role="status" className="muted">
            Returning you to the application…
          </p>
        </section>
      );
    case 'invalid':
      return (
        <section className="panel consent" aria-labelledby="consent-invalid-title">
          <h1 id="consent-invalid-title" className="page-title">
            This request cannot be completed
          </h1>
          <div role="alert" className="status status--error">
            <p className="status__summary">This application's request is invalid.</p>
            <p className="status__detail">{state.message}</p>
          </div>
          <p>
            Nothing was shared with the application. Go back to it and try again, or contact the people who make it if
            this keeps happening.
          </p>
          {state.requestId ? (
            <p className="muted">
              Reference for support: <code className="break-anywhere">{state.requestId}</code>
            </p>
          ) : null}
        </section>
      );
    case 'failed':
      return (
        <section className="panel consent" aria-labelledby="consent-failed-title">
          <h1 id="consent-failed-title" className="page-title">
            Authorize an application
          </h1>
          <div role="alert" className="status status--error">
            <p className="status__summary">The request could not be loaded.</p>
            <p className="status__detail">{state.message}</p>
            <button type="button" className="button" onClick={retry}>
              Try again
            </button>
          </div>
        </section>
      );
    case 'prompt':
      return <ConsentPrompt prompt={state.prompt} signedInAs={user?.email} />;
  }
}
