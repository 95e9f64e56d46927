import { useMemo, useSyncExternalStore } from 'react';

// pushState/replaceState fire no event of their own; the router listens for this one as well as popstate.
const NAVIGATION_EVENT = 'wildo:navigation';

/** Moves to another page of this app without reloading it. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATION_EVENT));
}

/** Leaves the app for an address outside it (an OAuth client's redirect URI): a full browser navigation. */
export function leaveApp(url: string): void {
  window.location.assign(url);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATION_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATION_EVENT, onChange);
  };
}

/** The current path and query, as a `next` target for sign-in. */
export function currentPathWithQuery(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/** The current `pathname` and `search`; re-renders on `navigate` and on back/forward. */
export function useLocation(): { pathname: string; search: string } {
  const snapshot = useSyncExternalStore(subscribe, currentPathWithQuery);
  return useMemo(() => {
    const queryStart = snapshot.indexOf('?');
    return queryStart === -1
      ? { pathname: snapshot, search: '' }
      : { pathname: snapshot.slice(0, queryStart), search: snapshot.slice(queryStart) };
  }, [snapshot]);
}
