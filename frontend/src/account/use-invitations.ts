import { useCallback, useEffect, useState } from 'react';
import { listInvitations, type ReceivedInvitation } from '../api/invitations.client';
import { loadSignedIn } from '../session/signed-in-load';

/** The invitations list as the page shows it. */
export type InvitationsState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; invitations: ReceivedInvitation[]; refreshing: boolean };

/** Loads the signed-in person's open invitations; `reload` fetches them again (after an answer, or on request). */
export function useInvitations(): { state: InvitationsState; reload: () => void } {
  const [state, setState] = useState<InvitationsState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    setState((current) => (current.kind === 'ready' ? { ...current, refreshing: true } : { kind: 'loading' }));
    return loadSignedIn(
      (accessToken, signal) => listInvitations(accessToken, { signal }),
      (invitations) => setState({ kind: 'ready', invitations, refreshing: false }),
      (message) => setState({ kind: 'error', message }),
    );
  }, [attempt]);

  const reload = useCallback(() => setAttempt((current) => current + 1), []);
  return { state, reload };
}
