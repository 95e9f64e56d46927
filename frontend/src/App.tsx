import type { HealthStatus } from './api/health.client';
import { useHealth, type HealthState } from './useHealth';

/** Root shell of the Wildo web app: title bar and backend status panel. */
export function App() {
  const { state, retry } = useHealth();
  return (
    <div className="app">
      <header className="app__header">
        <h1 className="app__title">Wildo</h1>
      </header>
      <main className="app__main">
        <section className="panel" aria-labelledby="backend-status-heading">
          <h2 id="backend-status-heading" className="panel__title">
            Backend status
          </h2>
          <StatusBody state={state} onRetry={retry} />
        </section>
      </main>
    </div>
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
      <p className="status__summary">{healthy ? 'The backend is up.' : 'The backend answered but reports a problem.'}</p>
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
