import { useSyncExternalStore } from 'react';

/** `sessionStorage` key of the signed-in person's access token (never localStorage, never the URL). */
export const ACCESS_TOKEN_KEY = 'wildo.accessToken';

const SESSION_EVENT = 'wildo:session';

function notify(): void {
  window.dispatchEvent(new Event(SESSION_EVENT));
}

/** The stored access token, or `null` when signed out (or when storage is unavailable). */
export function readAccessToken(): string | null {
  try {
    return window.sessionStorage.getItem(ACCESS_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Keeps the access token for this tab only: it ends with the browsing session. */
export function storeAccessToken(token: string): void {
  window.sessionStorage.setItem(ACCESS_TOKEN_KEY, token);
  notify();
}

/** Forgets the access token (sign-out, or a token the backend no longer accepts). */
export function clearAccessToken(): void {
  try {
    window.sessionStorage.removeItem(ACCESS_TOKEN_KEY);
  } catch {
    // Storage that cannot be read holds no token to forget.
  }
  notify();
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(SESSION_EVENT, onChange);
  return () => window.removeEventListener(SESSION_EVENT, onChange);
}

/** True while an access token is stored; re-renders on sign-in and sign-out. */
export function useIsSignedIn(): boolean {
  return useSyncExternalStore(subscribe, () => readAccessToken() !== null);
}
