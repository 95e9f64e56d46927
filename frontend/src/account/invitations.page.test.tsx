import { act, render, screen, waitForElementToBeRemoved, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../App';
import { ACCESS_TOKEN_KEY } from '../session/access-token.store';
import { errorEnvelope, json, pending, stubBackend, type RouteAnswer, type Routes } from '../test-support/fetch-routes';
import { TEST_TOKEN, currentUrl, openAt, signIn } from '../test-support/fixtures';

const LIST = 'GET /api/v1/invitations';
const FRESH_TOKEN = 'fresh-access-token';

function invitation(id: string, organizationName: string, overrides: Record<string, unknown> = {}) {
  return {
    _id: id,
    organizationId: `${id}-org`,
    organizationName,
    role: 'ORG_MEMBER',
    invitedBy: 'Grace',
    createdAt: '2030-11-05T10:00:00.000Z',
    expiresAt: '2030-11-19T10:00:00.000Z',
    ...overrides,
  };
}

function openInvitationsPage(routes: Routes) {
  signIn();
  openAt('/account/invitations');
  const backend = stubBackend(routes);
  render(<App />);
  return backend;
}

describe('invitations page', () => {
  it('lists each invitation with organization, role, inviter and expiry, with named buttons', async () => {
    const backend = openInvitationsPage({
      [LIST]: json({
        data: [
          invitation('i1', 'Analytical Engines', { role: 'ORG_MANAGER' }),
          invitation('i2', 'Difference Ltd', { invitedBy: null }),
        ],
      }),
    });

    const item = (await screen.findByRole('heading', { level: 2, name: 'Analytical Engines' })).closest('li')!;
    expect(within(item).getByText('Manager')).toBeTruthy();
    expect(within(item).getByText('Grace')).toBeTruthy();
    expect(within(item).getByText('2030', { exact: false }).getAttribute('datetime')).toBe('2030-11-19T10:00:00.000Z');
    expect(within(item).getByRole('button', { name: 'Accept invitation to Analytical Engines' })).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Decline invitation to Analytical Engines' })).toBeTruthy();
    const other = screen.getByRole('heading', { level: 2, name: 'Difference Ltd' }).closest('li')!;
    expect(within(other).queryByText('Invited by')).toBeNull();
    expect(backend.callsTo(LIST)[0]!.authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it('accepts an invitation, keeps the fresh token and announces the outcome', async () => {
    let invitations = [invitation('i1', 'Analytical Engines'), invitation('i2', 'Difference Ltd')];
    const backend = openInvitationsPage({
      [LIST]: () => json({ data: invitations }),
      'POST /api/v1/invitations/i1/accept': () => {
        invitations = invitations.filter((i) => i._id !== 'i1');
        return json({
          data: {
            organization: { _id: 'i1-org', name: 'Analytical Engines', role: 'ORG_MEMBER' },
            accessToken: FRESH_TOKEN,
            tokenType: 'Bearer',
            expiresIn: 900,
          },
        });
      },
    });

    act(() => screen.getByRole('heading', { level: 1 }).focus());
    const accept = await screen.findByRole('button', { name: 'Accept invitation to Analytical Engines' });
    act(() => accept.click());
    await waitForElementToBeRemoved(() => screen.queryByRole('heading', { level: 2, name: 'Analytical Engines' }));

    expect((await screen.findByText('You joined Analytical Engines as Member.')).getAttribute('role')).toBe('status');
    expect(window.sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBe(FRESH_TOKEN);
    expect(backend.callsTo('POST /api/v1/invitations/i1/accept')[0]!.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    // The list is read again with the fresh token (the old one no longer works).
    expect(backend.callsTo(LIST).map((call) => call.authorization)).toEqual([
      `Bearer ${TEST_TOKEN}`,
      `Bearer ${FRESH_TOKEN}`,
    ]);
    expect(screen.getByRole('heading', { level: 2, name: 'Difference Ltd' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Invitations' }));
  });

  it('declines an invitation and shows the empty state', async () => {
    let invitations = [invitation('i1', 'Analytical Engines')];
    const backend = openInvitationsPage({
      [LIST]: () => json({ data: invitations }),
      'POST /api/v1/invitations/i1/decline': () => {
        invitations = [];
        return json({ data: { _id: 'i1', status: 'declined' } });
      },
    });

    const decline = await screen.findByRole('button', { name: 'Decline invitation to Analytical Engines' });
    act(() => decline.click());

    expect(await screen.findByText('No open invitations.')).toBeTruthy();
    expect((await screen.findByText('You declined the invitation to Analytical Engines.')).getAttribute('role')).toBe(
      'status',
    );
    expect(window.sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBe(TEST_TOKEN);
    expect(backend.callsTo('POST /api/v1/invitations/i1/accept')).toEqual([]);
  });

  it('says so when an invitation is no longer open, and refreshes the list', async () => {
    let invitations = [invitation('i1', 'Analytical Engines')];
    openInvitationsPage({
      [LIST]: () => json({ data: invitations }),
      'POST /api/v1/invitations/i1/accept': () => {
        invitations = [];
        return errorEnvelope(
          409,
          'CONFLICT',
          'This invitation is no longer open: it was answered, revoked or has expired.',
        );
      },
    });

    const accept = await screen.findByRole('button', { name: 'Accept invitation to Analytical Engines' });
    act(() => accept.click());

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The invitation was not accepted.');
    expect(alert.textContent).toContain('no longer open');
    expect(await screen.findByText('No open invitations.')).toBeTruthy();
    expect(window.sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBe(TEST_TOKEN);
  });

  it('shows a loading state first', () => {
    openInvitationsPage({ [LIST]: () => pending<RouteAnswer>() });

    expect(screen.getByText(/loading your invitations/i).getAttribute('role')).toBe('status');
    expect(screen.getByRole('heading', { level: 1 }).closest('section')!.getAttribute('aria-busy')).toBe('true');
  });

  it('shows an error state and loads again on request', async () => {
    let attempt = 0;
    openInvitationsPage({
      [LIST]: () =>
        ++attempt === 1
          ? errorEnvelope(503, 'SERVICE_UNAVAILABLE', 'Try again shortly.')
          : json({ data: [invitation('i1', 'Analytical Engines')] }),
    });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your invitations could not be loaded.');
    act(() => within(alert).getByRole('button', { name: 'Try again' }).click());

    expect(await screen.findByRole('heading', { level: 2, name: 'Analytical Engines' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends a signed-out person to sign in, and back', async () => {
    openAt('/account/invitations');
    const backend = stubBackend({});
    render(<App />);

    await screen.findByRole('heading', { level: 1, name: /sign in/i });
    expect(currentUrl()).toBe(`/login?${new URLSearchParams({ next: '/account/invitations' }).toString()}`);
    expect(backend.callsTo(LIST)).toEqual([]);
  });

  it('is linked from the main navigation', async () => {
    openInvitationsPage({ [LIST]: json({ data: [] }) });

    await screen.findByText('No open invitations.');
    const link = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Invitations' });
    expect(link.getAttribute('aria-current')).toBe('page');
  });
});
