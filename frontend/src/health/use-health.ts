import { useCallback, useEffect, useState } from 'react';
import { fetchHealth, HealthError, type HealthStatus } from '../api/health.client';

/** State of the backend health check as seen by the UI. */
export type HealthState =
  | { kind: 'loading' }
  | { kind: 'ok'; health: HealthStatus }
  | { kind: 'error'; message: string };

/** Loads the backend health once on mount; `retry` starts a new check. */
export function useHealth(): { state: HealthState; retry: () => void } {
  const [state, setState] = useState<HealthState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    fetchHealth(controller.signal).then(
      (health) => {
        if (!controller.signal.aborted) setState({ kind: 'ok', health });
      },
      (error: unknown) => {
        // An aborted request belongs to an unmounted or superseded effect: its outcome is stale.
        if (controller.signal.aborted) return;
        const message = error instanceof HealthError ? error.message : 'Unexpected error while checking the backend.';
        setState({ kind: 'error', message });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
