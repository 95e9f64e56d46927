import { useEffect, useState, useSyncExternalStore } from 'react';
import { fetchSession, type OrganizationSummary } from '../api/organizations.client';
import { readAccessToken } from './access-token.store';

/** Who is signed in, as the pages and the header need it. */
export interface SessionInfo {
  userId: string;
  email: string;
  appRoles: string[];
  organizations: OrganizationSummary[];
}

const SESSION_CHANGED = 'wildo:session-info';
let version = 0;

/** Asks every {@link useSessionInfo} to read the session again (after creating, joining or leaving an organization). */
export function refreshSessionInfo(): void {
  version += 1;
  window.dispatchEvent(new Event(SESSION_CHANGED));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(SESSION_CHANGED, onChange);
  window.addEventListener('wildo:session', onChange);
  return () => {
    window.removeEventListener(SESSION_CHANGED, onChange);
    window.removeEventListener('wildo:session', onChange);
  };
}

/** The signed-in person's session (`null` while loading or signed out); re-read on sign-in and {@link refreshSessionInfo}. */
export function useSessionInfo(): SessionInfo | null {
  const key = useSyncExternalStore(subscribe, () => `${readAccessToken() ?? ''}#${version}`);
  const [info, setInfo] = useState<SessionInfo | null>(null);
  useEffect(() => {
    const accessToken = readAccessToken();
    if (!accessToken) {
      setInfo(null);
      return;
    }
    const controller = new AbortController();
    fetchSession(accessToken, controller.signal).then(
      (session) => {
        if (controller.signal.aborted) return;
        setInfo({
          userId: session.user._id,
          email: session.user.email,
          appRoles: session.appRoles,
          organizations: session.organizations,
        });
      },
      () => {
        // Pages make their own calls and send the person to sign in when the token is refused.
      },
    );
    return () => controller.abort();
  }, [key]);
  return info;
}
