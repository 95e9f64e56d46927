import { useCallback, useEffect, useState } from 'react';
import { loadSignedIn } from '../session/signed-in-load';

/** What a signed-in read shows: loading, its failure, or its data. */
export type SignedInData<T> = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; data: T };

/**
 * Loads `load` as the signed-in person when `key` changes or `reload()` is called (the previous data stays
 * shown while reloading, so a list does not jump).
 */
export function useSignedInData<T>(
  key: string,
  load: (accessToken: string, signal: AbortSignal) => Promise<T>,
): { state: SignedInData<T>; reload: () => void } {
  const [state, setState] = useState<SignedInData<T>>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(
    () =>
      loadSignedIn(
        load,
        (data) => setState({ kind: 'ready', data }),
        (message) => setState({ kind: 'error', message }),
      ),
    // `load` is recreated on each render; `key` names what it reads.
    [key, attempt],
  );
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, reload };
}
