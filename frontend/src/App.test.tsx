import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { ACCESS_TOKEN_KEY } from './session/access-token.store';
import { json, stubBackend } from './test-support/fetch-routes';
import { currentUrl, openAt, signIn } from './test-support/fixtures';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function stubFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('App', () => {
  it('shows the title and a loading state first', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => new Promise<Response>(() => {})),
    );
    openAt('/status');
    render(<App />);
    expect(screen.getByRole('link', { name: 'Wildo' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('heading', { level: 1, name: 'Status' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/checking the backend/i);
  });

  it('shows the reported status and version for a healthy backend', async () => {
    const fetchMock = stubFetch(jsonResponse({ data: { status: 'ok', version: '1.4.2' } }));
    openAt('/status');
    render(<App />);

    const status = await screen.findByText('The backend is up.');
    const region = status.closest<HTMLElement>('[role="status"]');
    expect(region).not.toBeNull();
    expect(within(region!).getByText('ok')).toBeTruthy();
    expect(within(region!).getByText('1.4.2')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/v1/health',
      expect.objectContaining({ headers: { Accept: 'application/json' } }),
    );
  });

  it('shows an error state when the backend answers 500', async () => {
    stubFetch(jsonResponse({ error: { message: 'boom' } }, 500));
    openAt('/status');
    render(<App />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/backend is unavailable/i);
    expect(alert.textContent).toContain('HTTP 500');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('shows an error state when the body is not valid JSON', async () => {
    stubFetch(new Response('<html>gateway</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    openAt('/status');
    render(<App />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/not valid JSON/i);
  });

  it('shows an error state when the JSON has the wrong shape', async () => {
    stubFetch(jsonResponse({ status: 'ok' }));
    openAt('/status');
    render(<App />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/unexpected format/i);
  });

  it('checks again when the user retries after an error', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(jsonResponse({}, 503))
      .mockResolvedValueOnce(jsonResponse({ data: { status: 'ok' } }));
    vi.stubGlobal('fetch', fetchMock);
    openAt('/status');
    render(<App />);

    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(await screen.findByText('The backend is up.')).toBeTruthy();
    expect(screen.getByText('not reported')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('App routing', () => {
  it('shows a signed-out visitor what the application is, with Create an account and Sign in', () => {
    stubBackend({});
    openAt('/');
    render(<App />);
    expect(screen.getByRole('heading', { level: 1, name: /todos, knowledge and assistant/ })).toBeTruthy();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      '/signup',
    );
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' })).toBeTruthy();
    // Signed out, the header offers no links that would only send the visitor to sign in.
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('folds the main links behind one Menu button that opens and closes them', () => {
    signIn();
    stubBackend({});
    openAt('/');
    render(<App />);
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    act(() => menu.click());
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('navigation', { name: 'Main' }).className).toContain('app__nav--open');
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Go to your organizations' })).toBeTruthy();
  });

  it('links from the status page to the remembered consents, without reloading', async () => {
    signIn();
    const backend = stubBackend({
      'GET /api/v1/health': json({ data: { status: 'ok' } }),
      'GET /api/v1/oauth-consent-grants': json({ data: [], nextCursor: null }),
    });
    openAt('/status');
    render(<App />);
    const link = within(screen.getByRole('main')).getByRole('link', { name: 'Remembered consents' });
    expect(link.getAttribute('href')).toBe('/account/consents');

    act(() => link.click());

    expect(await screen.findByText('No remembered consents.')).toBeTruthy();
    expect(currentUrl()).toBe('/account/consents');
    expect(
      within(screen.getByRole('navigation', { name: 'Main' }))
        .getByRole('link', { name: 'Remembered consents' })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(backend.callsTo('GET /api/v1/oauth-consent-grants')).toHaveLength(1);
  });

  it('follows the back button', async () => {
    stubBackend({ 'GET /api/v1/health': json({ data: { status: 'ok' } }) });
    openAt('/nowhere');
    render(<App />);
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();

    act(() => screen.getByRole('link', { name: 'Go to the home page' }).click());
    expect(await screen.findByRole('link', { name: 'Create an account' })).toBeTruthy();

    act(() => {
      window.history.back();
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });

  it('signs out by forgetting the token', async () => {
    signIn();
    stubBackend({ 'GET /api/v1/health': json({ data: { status: 'ok' } }) });
    openAt('/status');
    render(<App />);

    act(() => screen.getByRole('button', { name: 'Sign out' }).click());

    expect(window.sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign in' })).toBeTruthy();
  });
});
