import { ApiError, describeFailure, isAbortError } from '../api/api.client';
import { readAccessToken } from './access-token.store';
import { redirectToLogin } from './sign-in-redirect';

/**
 * One signed-in read, run from an effect: without a token, or when the backend refuses it, the person is sent
 * to sign in; an answer arriving after the cleanup is dropped; any other failure reaches `onFailure` as a
 * message for an alert. Returns the effect's cleanup (it cancels the request).
 *
 * @example
 * useEffect(() => loadSignedIn(listInvitations, (data) => setState({ kind: 'ready', data }), showError), [attempt]);
 */
export function loadSignedIn<T>(
  load: (accessToken: string, signal: AbortSignal) => Promise<T>,
  onData: (data: T) => void,
  onFailure: (message: string) => void,
): () => void {
  const accessToken = readAccessToken();
  if (!accessToken) {
    redirectToLogin();
    return () => {};
  }
  const controller = new AbortController();
  load(accessToken, controller.signal).then(
    (data) => {
      if (!controller.signal.aborted) onData(data);
    },
    (error: unknown) => {
      if (controller.signal.aborted || isAbortError(error)) return;
      if (error instanceof ApiError && error.isUnauthenticated) redirectToLogin({ tokenRefused: true });
      else onFailure(describeFailure(error));
    },
  );
  return () => controller.abort();
}
