import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../App';
import { ACCESS_TOKEN_KEY } from '../session/access-token.store';
import { errorEnvelope, json, pending, stubBackend, type RouteAnswer } from '../test-support/fetch-routes';
import { TEST_USER, currentUrl, openAt } from '../test-support/fixtures';

const LOGIN = 'POST /api/v1/auth/login';
const TOKEN = 'eyJ.fresh.token';
const signedIn = json({ data: { user: TEST_USER, accessToken: TOKEN, tokenType: 'Bearer', expiresIn: 900 } });

function fillAndSubmit(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

function openLogin(next: string | null, routes: Parameters<typeof stubBackend>[0] = { [LOGIN]: signedIn }) {
  openAt(next === null ? '/login' : `/login?${new URLSearchParams({ next }).toString()}`);
  const backend = stubBackend(routes);
  render(<App />);
  return backend;
}

describe('login page', () => {
  it('signs in, keeps the token in sessionStorage only, and returns to `next`', async () => {
    const next =
      '/oauth/authorize?response_type=code&client_id=example-mcp-tool&redirect_uri=https%3A%2F%2Ftool.example%2Fcallback';
    const backend = openLogin(next, {
      [LOGIN]: signedIn,
      'POST /api/v1/oauth/authorize': () => pending<RouteAnswer>(),
    });
    expect(screen.getByText(/an application asked to connect to your account/i)).toBeTruthy();

    fillAndSubmit('  ada@example.com ', 'a long passphrase');

    expect(await screen.findByText(/reading the application's request/i)).toBeTruthy();
    expect(currentUrl()).toBe(next);
    expect(backend.callsTo(LOGIN).map((call) => call.body)).toEqual([
      { email: 'ada@example.com', password: 'a long passphrase' },
    ]);
    expect(window.sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBe(TOKEN);
    expect(window.localStorage.length).toBe(0);
    expect(window.location.href).not.toContain(TOKEN);
    expect(document.cookie).not.toContain(TOKEN);
    // The consent page then calls the backend with the new token.
    expect(backend.callsTo('POST /api/v1/oauth/authorize')[0]?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it.each([
    ['another site', 'https://evil.example/steal'],
    ['a protocol-relative address', '//evil.example/steal'],
    ['a backslash trick', '/\\evil.example/steal'],
    ['a script address', 'javascript:alert(1)'],
  ])('refuses %s as `next` and goes home instead', async (_label, next) => {
    openLogin(next);
    fillAndSubmit('ada@example.com', 'a long passphrase');

    expect(await screen.findByRole('link', { name: 'Go to your organizations' })).toBeTruthy();
    expect(currentUrl()).toBe('/');
    expect(window.sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBe(TOKEN);
  });

  it('goes home when there is no `next`', async () => {
    openLogin(null);
    fillAndSubmit('ada@example.com', 'a long passphrase');

    expect(await screen.findByRole('link', { name: 'Go to your organizations' })).toBeTruthy();
    expect(currentUrl()).toBe('/');
  });

  it('shows field-level errors, tied to their inputs, without calling the backend', () => {
    const backend = openLogin('/account/consents');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Enter your email address.',
    );
    expect(screen.getByLabelText('Password').getAttribute('aria-describedby')).toBeTruthy();
    expect(document.activeElement).toBe(email);

    fireEvent.change(email, { target: { value: 'not-an-address' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter an email address like name@example.com.')).toBeTruthy();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBeNull();
    expect(backend.calls).toHaveLength(0);
  });

  it('reports wrong credentials in an alert and stores nothing', async () => {
    openLogin('/account/consents', {
      [LOGIN]: errorEnvelope(401, 'UNAUTHENTICATED', 'The email or password is incorrect.', {
        reason: 'credential_invalid',
      }),
    });
    fillAndSubmit('ada@example.com', 'wrong');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The email or password is incorrect.');
    expect(window.sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(window.location.pathname).toBe('/login');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sign in' }).disabled).toBe(false);
  });

  it('says when to try again after too many attempts', async () => {
    openLogin(null, {
      [LOGIN]: {
        ...errorEnvelope(429, 'RATE_LIMITED', 'Too many sign-in attempts.', { reason: 'rate_limit_exceeded' }),
        headers: { 'Retry-After': '42' },
      },
    });
    fillAndSubmit('ada@example.com', 'a long passphrase');

    expect((await screen.findByRole('alert')).textContent).toContain(
      'Too many sign-in attempts. You can try again in about 42 seconds.',
    );
  });

  it('marks the fields the backend refused', async () => {
    openLogin(null, {
      [LOGIN]: errorEnvelope(400, 'VALIDATION_FAILED', 'The request is invalid.', {
        problems: [{ path: 'email', expected: 'string, at most 254 characters' }],
      }),
    });
    fillAndSubmit('ada@example.com', 'a long passphrase');

    await screen.findByRole('alert');
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Check your email address.')).toBeTruthy();
  });

  it('sends one request and shows it is busy while signing in', () => {
    const backend = openLogin(null, { [LOGIN]: () => pending<RouteAnswer>() });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'a long passphrase' } });
    const form = screen.getByRole('button', { name: 'Sign in' }).closest('form')!;

    act(() => {
      form.requestSubmit();
      form.requestSubmit();
    });

    expect(backend.callsTo(LOGIN)).toHaveLength(1);
    expect(form.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Signing in…' }).disabled).toBe(true);
  });
});
