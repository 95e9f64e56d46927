import { useEffect, useState } from 'react';
import { fetchCurrentUser } from '../api/auth.client';
import type { AuthUser } from '../api/contracts';
import { readAccessToken } from './access-token.store';

/** The signed-in person, once known; `null` while loading or when it cannot be read (informative only). */
export function useCurrentUser(): AuthUser | null {
  const [user, setUser] = useState<AuthUser | null>(null);
  useEffect(() => {
    const accessToken = readAccessToken();
    if (!accessToken) return;
    const controller = new AbortController();
    fetchCurrentUser(accessToken, controller.signal).then(
      (found) => {
        if (!controller.signal.aborted) setUser(found);
      },
      () => {
        // Pages that need the session make their own calls and handle a refused token there.
      },
    );
    return () => controller.abort();
  }, []);
  return user;
}
