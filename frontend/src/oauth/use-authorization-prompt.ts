import type { OAuthConsentPrompt } from '@wildo/shared-lib';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, describeFailure, isAbortError } from '../api/api.client';
import { submitAuthorizationRequest } from '../api/oauth-consent.client';
import { leaveApp } from '../routing/navigation';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import { isNavigableRedirect, readAuthorizationRequest } from './authorization-request';

/** What the consent page knows about the authorization request it was opened with. */
export type AuthorizationPromptState =
  | { kind: 'loading' }
  /** The browser is on its way to the client (consent skipped, or an error the client must receive). */
  | { kind: 'leaving' }
  /** The request cannot be returned to the client: shown here, never redirected. */
  | { kind: 'invalid'; message: string; requestId?: string }
  /** A failure that may pass (network, server error, throttling): the person can try again. */
  | { kind: 'failed'; message: string }
  | { kind: 'prompt'; prompt: OAuthConsentPrompt };

function isRetryable(error: ApiError): boolean {
  return (
    error.status === 0 ||
    error.status === 408 ||
    error.status === 429 ||
    error.status >= 500 ||
    error.code === 'BAD_RESPONSE'
  );
}

/** Sends the page's authorization request to the backend once per attempt and tracks the answer. */
export function useAuthorizationPrompt(search: string): { state: AuthorizationPromptState; retry: () => void } {
  const [state, setState] = useState<AuthorizationPromptState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const accessToken = readAccessToken();
    if (!accessToken) {
      redirectToLogin();
      return;
    }
    const read = readAuthorizationRequest(search);
    if (!read.ok) {
      setState({ kind: 'invalid', message: read.message });
      return;
    }
    const controller = new AbortController();
    setState({ kind: 'loading' });
    submitAuthorizationRequest(read.request, accessToken, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        if (answer.kind === 'consent') {
          setState({ kind: 'prompt', prompt: answer });
        } else if (isNavigableRedirect(answer.redirect_to)) {
          setState({ kind: 'leaving' });
          leaveApp(answer.redirect_to);
        } else {
          setState({ kind: 'invalid', message: 'The server answered with an address this page will not open.' });
        }
      },
      (error: unknown) => {
        // An aborted request belongs to an unmounted or superseded attempt.
        if (controller.signal.aborted || isAbortError(error)) return;
        if (error instanceof ApiError && error.isUnauthenticated) {
          redirectToLogin({ tokenRefused: true });
        } else if (error instanceof ApiError && !isRetryable(error)) {
          setState({ kind: 'invalid', message: error.message, requestId: error.details.requestId });
        } else {
          setState({ kind: 'failed', message: describeFailure(error) });
        }
      },
    );
    return () => controller.abort();
  }, [search, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
