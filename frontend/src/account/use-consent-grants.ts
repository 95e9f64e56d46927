import { useCallback, useEffect, useState } from 'react';
import { listConsentGrants, type ConsentGrantRecord } from '../api/consent-grants.client';
import { loadSignedIn } from '../session/signed-in-load';

/** The remembered-consents list as the page shows it. */
export type ConsentGrantsState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; grants: ConsentGrantRecord[]; nextCursor: string | null; refreshing: boolean };

/** Loads the signed-in person's remembered consents; `reload` refetches from the start, `loadMore` appends the next page. */
export function useConsentGrants(): { state: ConsentGrantsState; reload: () => void; loadMore: () => void } {
  const [state, setState] = useState<ConsentGrantsState>({ kind: 'loading' });
  const [request, setRequest] = useState<{ attempt: number; cursor?: string }>({ attempt: 0 });

  useEffect(() => {
    setState((current) => (current.kind === 'ready' ? { ...current, refreshing: true } : { kind: 'loading' }));
    return loadSignedIn(
      (accessToken, signal) => listConsentGrants(accessToken, { cursor: request.cursor, signal }),
      (page) =>
        setState((current) => ({
          kind: 'ready',
          grants: request.cursor && current.kind === 'ready' ? [...current.grants, ...page.grants] : page.grants,
          nextCursor: page.nextCursor,
          refreshing: false,
        })),
      (message) => setState({ kind: 'error', message }),
    );
  }, [request]);

  const reload = useCallback(() => setRequest((current) => ({ attempt: current.attempt + 1 })), []);
  const loadMore = useCallback(() => {
    if (state.kind !== 'ready' || !state.nextCursor || state.refreshing) return;
    const cursor = state.nextCursor;
    setRequest((previous) => ({ attempt: previous.attempt + 1, cursor }));
  }, [state]);
  return { state, reload, loadMore };
}
