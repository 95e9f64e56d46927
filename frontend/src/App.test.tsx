import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function stubFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  // Vitest globals are off, so Testing Library cannot register its own cleanup.
  cleanup();
  vi.unstubAllGlobals();
});

describe('App', () => {
  it('shows the title and a loading state first', () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(() => new Promise<Response>(() => {})));
    render(<App />);
    expect(screen.getByRole('heading', { level: 1, name: 'Wildo' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/checking the backend/i);
  });

  it('shows the reported status and version for a healthy backend', async () => {
    const fetchMock = stubFetch(jsonResponse({ data: { status: 'ok', version: '1.4.2' } }));
    render(<App />);

    const status = await screen.findByText('The backend is up.');
    const region = status.closest<HTMLElement>('[role="status"]');
    expect(region).not.toBeNull();
    expect(within(region!).getByText('ok')).toBeTruthy();
    expect(within(region!).getByText('1.4.2')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/health', expect.objectContaining({ headers: { Accept: 'application/json' } }));
  });

  it('shows an error state when the backend answers 500', async () => {
    stubFetch(jsonResponse({ error: { message: 'boom' } }, 500));
    render(<App />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/backend is unavailable/i);
    expect(alert.textContent).toContain('HTTP 500');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('shows an error state when the body is not valid JSON', async () => {
    stubFetch(new Response('<html>gateway</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    render(<App />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/not valid JSON/i);
  });

  it('shows an error state when the JSON has the wrong shape', async () => {
    stubFetch(jsonResponse({ status: 'ok' }));
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
    render(<App />);

    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(await screen.findByText('The backend is up.')).toBeTruthy();
    expect(screen.getByText('not reported')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
