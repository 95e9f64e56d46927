import { act, render, screen, waitForElementToBeRemoved, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../App';
import { ACCESS_TOKEN_KEY } from '../session/access-token.store';
import { errorEnvelope, json, pending, stubBackend, type RouteAnswer, type Routes } from '../test-support/fetch-routes';
import { TEST_TOKEN, currentUrl, openAt, signIn } from '../test-support/fixtures';

const LIST = 'GET /api/v1/oauth-consent-grants';
const RESOURCE = 'http://localhost:4241/api/v1/mcp';

function grant(id: string, clientName: string, overrides: Record<string, unknown> = {}) {
  return {
    _id: id,
    clientId: `${id}-client`,
    clientName,
    resource: RESOURCE,
    scopes: ['openid', 'profile'],
    expiresAt: '2031-05-04T10:00:00.000Z',
    createdAt: '2030-11-05T10:00:00.000Z',
    updatedAt: '2030-11-05T10:00:00.000Z',
    ...overrides,
  };
}

function openConsentsPage(routes: Routes) {
  signIn();
  openAt('/account/consents');
  const backend = stubBackend(routes);
  render(<App />);
  return backend;
}

describe('remembered consents page', () => {
  it('lists each consent with client, resource, scopes and expiry', async () => {
    const backend = openConsentsPage({
      [LIST]: json({
        data: [grant('g1', 'Example MCP Tool'), grant('g2', 'Calendar Sync', { scopes: ['openid', 'email'] })],
        nextCursor: null,
      }),
    });

    const item = (await screen.findByRole('heading', { level: 2, name: 'Example MCP Tool' })).closest('li')!;
    expect(within(item).getByText(RESOURCE)).toBeTruthy();
    expect(within(item).getByText(/confirm who you are/i)).toBeTruthy();
    expect(within(item).getByText(/see your profile/i)).toBeTruthy();
    expect(within(item).getByText('2031', { exact: false }).getAttribute('datetime')).toBe('2031-05-04T10:00:00.000Z');
    expect(within(item).getByRole('button', { name: 'Withdraw consent for Example MCP Tool' })).toBeTruthy();
    const other = screen.getByRole('heading', { level: 2, name: 'Calendar Sync' }).closest('li')!;
    expect(within(other).getByText(/see your email address/i)).toBeTruthy();
    expect(backend.callsTo(LIST)[0]!.authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it('withdraws a consent and refreshes the list, where it is gone', async () => {
    let grants = [grant('g1', 'Example MCP Tool'), grant('g2', 'Calendar Sync')];
    const backend = openConsentsPage({
      [LIST]: () => json({ data: grants, nextCursor: null }),
      'DELETE /api/v1/oauth-consent-grants/g1': () => {
        grants = grants.filter((g) => g._id !== 'g1');
        return json({ data: { _id: 'g1', deleted: true } });
      },
    });

    const withdraw = await screen.findByRole('button', { name: 'Withdraw consent for Example MCP Tool' });
    act(() => withdraw.click());
    await waitForElementToBeRemoved(() => screen.queryByRole('heading', { level: 2, name: 'Example MCP Tool' }));

    expect(screen.getByRole('heading', { level: 2, name: 'Calendar Sync' })).toBeTruthy();
    expect((await screen.findByText('Consent for Example MCP Tool withdrawn.')).getAttribute('role')).toBe('status');
    const deletes = backend.calls.filter((call) => call.method === 'DELETE');
    expect(deletes).toEqual([
      {
        method: 'DELETE',
        path: '/api/v1/oauth-consent-grants/g1',
        authorization: `Bearer ${TEST_TOKEN}`,
        body: undefined,
      },
    ]);
    expect(backend.callsTo(LIST)).toHaveLength(2);
  });

  it('shows the empty state after the last consent is withdrawn', async () => {
    let grants = [grant('g1', 'Example MCP Tool')];
    openConsentsPage({
      [LIST]: () => json({ data: grants, nextCursor: null }),
      'DELETE /api/v1/oauth-consent-grants/g1': () => {
        grants = [];
        return json({ data: { _id: 'g1', deleted: true } });
      },
    });

    act(() => screen.getByRole('heading', { level: 1 }).focus());
    const withdraw = await screen.findByRole('button', { name: /withdraw consent for example mcp tool/i });
    act(() => withdraw.click());

    expect(await screen.findByText('No remembered consents.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Remembered consents' }));
  });

  it('shows an empty state when there is nothing to withdraw', async () => {
    openConsentsPage({ [LIST]: json({ data: [], nextCursor: null }) });

    expect(await screen.findByText('No remembered consents.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /withdraw/i })).toBeNull();
  });

  it('shows a loading state first', () => {
    openConsentsPage({ [LIST]: () => pending<RouteAnswer>() });

    expect(screen.getByText(/loading your remembered consents/i).getAttribute('role')).toBe('status');
    expect(screen.getByRole('heading', { level: 1 }).closest('section')!.getAttribute('aria-busy')).toBe('true');
  });

  it('shows an error state and loads again on request', async () => {
    let attempt = 0;
    openConsentsPage({
      [LIST]: () =>
        ++attempt === 1
          ? errorEnvelope(503, 'SERVICE_UNAVAILABLE', 'The consent store is unavailable.')
          : json({ data: [grant('g1', 'Example MCP Tool')] }),
    });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The consent store is unavailable.');
    act(() => within(alert).getByRole('button', { name: 'Try again' }).click());

    expect(await screen.findByRole('heading', { level: 2, name: 'Example MCP Tool' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the consent and says so when withdrawing fails', async () => {
    openConsentsPage({
      [LIST]: json({ data: [grant('g1', 'Example MCP Tool')], nextCursor: null }),
      'DELETE /api/v1/oauth-consent-grants/g1': errorEnvelope(500, 'INTERNAL', 'An internal error occurred.'),
    });

    const withdraw = await screen.findByRole<HTMLButtonElement>('button', {
      name: /withdraw consent for example mcp tool/i,
    });
    act(() => withdraw.click());

    expect((await screen.findByRole('alert')).textContent).toContain('The consent was not withdrawn.');
    expect(screen.getByRole('heading', { level: 2, name: 'Example MCP Tool' })).toBeTruthy();
    expect(withdraw.disabled).toBe(false);
  });

  it('loads the next page on request', async () => {
    const backend = openConsentsPage({
      [LIST]: json({ data: [grant('g1', 'Example MCP Tool')], nextCursor: 'cursor-2' }),
      [`${LIST}?cursor=cursor-2`]: json({ data: [grant('g2', 'Calendar Sync')], nextCursor: null }),
    });

    const more = await screen.findByRole('button', { name: 'Show more' });
    act(() => more.click());

    expect(await screen.findByRole('heading', { level: 2, name: 'Calendar Sync' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Example MCP Tool' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    // The app shell also reads the session (`/auth/me`) for the header; this test is about the consents list.
    expect(backend.calls.map((call) => call.path).filter((path) => path !== '/api/v1/auth/me')).toEqual([
      '/api/v1/oauth-consent-grants',
      '/api/v1/oauth-consent-grants?cursor=cursor-2',
    ]);
  });

  it('goes to sign-in when the session is refused', async () => {
    openConsentsPage({ [LIST]: errorEnvelope(401, 'UNAUTHENTICATED', 'The access token has expired.') });

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(currentUrl()).toBe('/login?next=%2Faccount%2Fconsents');
    expect(window.sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  });

  it('goes to sign-in when nobody is signed in', async () => {
    openAt('/account/consents');
    const backend = stubBackend({});
    render(<App />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(currentUrl()).toBe('/login?next=%2Faccount%2Fconsents');
    expect(backend.calls).toHaveLength(0);
  });
});
