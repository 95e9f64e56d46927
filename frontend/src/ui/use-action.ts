import { useState } from 'react';
import { ApiError, describeFailure } from '../api/api.client';
import type { RefusalContext } from './people-words';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';

/**
 * Runs an action as the signed-in person; reports its outcome to the page's status or alert, in people's words
 * (`context.requiredRole` names the role a refusal needs).
 */
export function useAction() {
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ summary: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (
    summary: string,
    action: (accessToken: string) => Promise<string>,
    context: RefusalContext = {},
  ): Promise<unknown> => {
    const accessToken = readAccessToken();
    if (!accessToken) {
      redirectToLogin();
      return null;
    }
    setBusy(true);
    setFailure(null);
    setMessage(null);
    try {
      setMessage(await action(accessToken));
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.isUnauthenticated) redirectToLogin({ tokenRefused: true });
      else setFailure({ summary, message: describeFailure(error, context) });
      return error;
    } finally {
      setBusy(false);
    }
  };
  return { message, failure, busy, run };
}
