import type { HealthStatus } from '../api/health.client';
import { Link } from '../routing/link';
import { useDocumentTitle } from '../routing/document-title';
import { useHealth, type HealthState } from './use-health';

/** `/status`: the backend status panel and a way into the account pages. */
export function HealthPage() {
  useDocumentTitle('Status');
  const { state, retry } = useHealth();
  return (
    <>
      <h1 className="page-title">Status</h1>
      <section className="panel" aria-labelledby="backend-status-heading">
        <h2 id="backend-status-heading" className="panel__title">
          Backend status
        </h2>
        <StatusBody state={state} onRetry={retry} />
      </section>
      <section className="panel" aria-labelledby="account-heading">
        <h2 id="account-heading" className="panel__title">
          Your account
        </h2>
        <p>Review the applications you allowed to use your account without asking again.</p>
        <Link to="/account/consents" className="button">
          Remembered consents
        </Link>
      </section>
    </>
  );
}

function StatusBody({ state, onRetry }: { state: HealthState; onRetry: () => void }) {
  switch (state.kind) {
    case 'loading':
      return (
        <p role="status" className="status status--loading">
          Checking the backend…
        </p>
      );
    case 'ok':
      return <HealthDetails health={state.health} />;
    case 'error':
      return <HealthErrorNotice message={state.message} onRetry={onRetry} />;
  }
}

function HealthDetails({ health }: { health: HealthStatus }) {
  const healthy = health.status === 'ok';
  return (
    <div role="status" className={`status ${healthy ? 'status--ok' : 'status--warn'}`}>
      <p className="status__summary">
        {healthy ? 'The backend is up.' : 'The backend answered but reports a problem.'}
      </p>
      <dl className="status__facts">
        <div>
          <dt>Status</dt>
          <dd>{health.status}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>{health.version ?? 'not reported'}</dd>
        </div>
      </dl>
    </div>
  );
}

function HealthErrorNotice({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="status status--error">
      <p className="status__summary">The backend is unavailable.</p>
      <p className="status__detail">{message}</p>
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
