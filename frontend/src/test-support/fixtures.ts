import { ACCESS_TOKEN_KEY } from '../session/access-token.store';
import { json, type Routes } from './fetch-routes';

/** The access token tests sign in with. */
export const TEST_TOKEN = 'test-access-token';

/** Puts a signed-in session in place, as the login page leaves it. */
export function signIn(token: string = TEST_TOKEN): void {
  window.sessionStorage.setItem(ACCESS_TOKEN_KEY, token);
}

/** Opens `path` as if the browser had navigated there (render the app afterwards). */
export function openAt(path: string): void {
  window.history.replaceState(null, '', path);
}

/** The address bar's path and query. */
export function currentUrl(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/** The signed-in person as `GET /api/v1/auth/me` returns them. */
export const TEST_USER = { _id: 'user-1', email: 'ada@example.com', displayName: 'Ada' };

/**
 * The resource descriptions of the reference application's two resources with hand-written pages (todos and
 * knowledge documents), as `GET /organizations/:id/resource-descriptions` answers: those pages are found through
 * them, so a test that opens one stubs this route too.
 */
export function handWrittenResourceDescriptions(organizationId = 'org-1'): Routes {
  const described = (type: string, displayName: string, singular: string) => ({
    type,
    displayName,
    singular,
    module: 'tasks-manager',
    builtIn: false,
    path: `/api/v1/organizations/${organizationId}/${type}`,
    recordSchema: { type: 'object', properties: {} },
    readOnlyFields: ['_id'],
    filters: [],
    sort: { order: 'newest_first' },
    pageSize: { default: 20, max: 100 },
    operations: [],
  });
  return {
    [`GET /api/v1/organizations/${organizationId}/resource-descriptions`]: json({
      data: [
        described('todos', 'Todos', 'todo'),
        described('knowledge-documents', 'Knowledge documents', 'knowledge document'),
      ],
    }),
  };
}
