import { useCallback, useEffect, useState } from 'react';
import { ApiError, describeFailure, isAbortError } from '../api/api.client';
import { listInvitations, type ReceivedInvitation } from '../api/invitations.client';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';

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
    const accessToken = readAccessToken();
    if (!accessToken) {
      redirectToLogin();
      return;
    }
    const controller = new AbortController();
    setState((current) => (current.kind === 'ready' ? { ...current, refreshing: true } : { kind: 'loading' }));
    listInvitations(accessToken, { signal: controller.signal }).then(
      (invitations) => {
        if (!controller.signal.aborted) setState({ kind: 'ready', invitations, refreshing: false });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        if (error instanceof ApiError && error.isUnauthenticated) redirectToLogin({ tokenRefused: true });
        else setState({ kind: 'error', message: describeFailure(error) });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const reload = useCallback(() => setAttempt((current) => current + 1), []);
  return { state, reload };
}
