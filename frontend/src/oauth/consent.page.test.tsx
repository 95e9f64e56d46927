import { act, render, screen, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { App } from '../App';
import { ACCESS_TOKEN_KEY } from '../session/access-token.store';
import {
  errorEnvelope,
  json,
  pending,
  stubBackend,
  stubLocationAssign,
  type RouteAnswer,
} from '../test-support/fetch-routes';
import { TEST_TOKEN, TEST_USER, currentUrl, openAt, signIn } from '../test-support/fixtures';

const RESOURCE = 'http://localhost:4241/api/v1/mcp';
const AUTHORIZE_QUERY = new URLSearchParams({
  response_type: 'code',
  client_id: 'example-mcp-tool',
  redirect_uri: 'https://tool.example/callback',
  scope: 'openid profile',
  state: 'state-123',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  resource: RESOURCE,
  // Not part of the backend contract: the page must leave it out.
  prompt: 'consent',
}).toString();
const CONSENT_URL = `/oauth/authorize?${AUTHORIZE_QUERY}`;
const AUTHORIZE = 'POST /api/v1/oauth/authorize';
const DECISION = 'POST /api/v1/oauth/authorize/decision';
const CALLBACK = 'https://tool.example/callback?code=abc&state=state-123';

const consentPrompt: RouteAnswer = json({
  data: {
    kind: 'consent',
    consent_token: 'consent-token-1',
    client: { client_id: 'example-mcp-tool', client_name: 'Example MCP Tool', client_uri: 'https://tool.example' },
    resource: RESOURCE,
    scopes: ['openid', 'profile'],
    expires_in: 600,
  },
});

function openConsentPage(routes: Parameters<typeof stubBackend>[0] = {}) {
  signIn();
  openAt(CONSENT_URL);
  const backend = stubBackend({
    [AUTHORIZE]: consentPrompt,
    'GET /api/v1/auth/me': json({ data: { user: TEST_USER, organizations: [] } }),
    ...routes,
  });
  const assign = stubLocationAssign();
  render(<App />);
  return { backend, assign };
}

describe('consent page', () => {
  it('shows who asks, for which resource and which scopes, with "remember" off', async () => {
    const { backend } = openConsentPage();

    const heading = await screen.findByRole('heading', {
      level: 1,
      name: /allow example mcp tool to use your account/i,
    });
    const page = heading.closest('section')!;
    expect(within(page).getByText(RESOURCE)).toBeTruthy();
    expect(within(page).getByText(/confirm who you are/i)).toBeTruthy();
    expect(within(page).getByText(/see your profile/i)).toBeTruthy();
    expect(within(page).getByText('openid')).toBeTruthy();
    expect(within(page).getByText('profile')).toBeTruthy();
    expect(await within(page).findByText(TEST_USER.email)).toBeTruthy();
    const remember = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Remember this decision' });
    expect(remember.checked).toBe(false);

    const [authorize] = backend.callsTo(AUTHORIZE);
    expect(backend.callsTo(AUTHORIZE)).toHaveLength(1);
    expect(authorize!.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(authorize!.body).toEqual({
      response_type: 'code',
      client_id: 'example-mcp-tool',
      redirect_uri: 'https://tool.example/callback',
      scope: 'openid profile',
      state: 'state-123',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: RESOURCE,
    });
  });

  it('approves with "remember" ticked exactly once, even on a double click, then goes to redirect_to', async () => {
    const { backend, assign } = openConsentPage({ [DECISION]: json({ data: { redirect_to: CALLBACK } }) });
    const approve = await screen.findByRole<HTMLButtonElement>('button', { name: 'Approve' });
    act(() => screen.getByRole('checkbox', { name: 'Remember this decision' }).click());

    // Both clicks land before React re-renders the disabled buttons: only the ref stands in the way.
    act(() => {
      approve.click();
      approve.click();
    });

    expect(await screen.findByText(/returning you to example mcp tool/i)).toBeTruthy();
    expect(backend.callsTo(DECISION)).toHaveLength(1);
    expect(backend.callsTo(DECISION)[0]!.body).toEqual({
      consent_token: 'consent-token-1',
      decision: 'approve',
      remember: true,
    });
    expect(backend.callsTo(DECISION)[0]!.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(CALLBACK);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Approve' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Deny' }).disabled).toBe(true);
  });

  it('approves without remembering when the box is left unticked', async () => {
    const { backend, assign } = openConsentPage({ [DECISION]: json({ data: { redirect_to: CALLBACK } }) });
    const approve = await screen.findByRole('button', { name: 'Approve' });
    act(() => approve.click());
    expect(await screen.findByText(/returning you to example mcp tool/i)).toBeTruthy();

    expect(backend.callsTo(DECISION).map((call) => call.body)).toEqual([
      { consent_token: 'consent-token-1', decision: 'approve', remember: false },
    ]);
    expect(assign).toHaveBeenCalledWith(CALLBACK);
  });

  it('denies once, never remembering, and disables both buttons while sending', async () => {
    const denied = 'https://tool.example/callback?error=access_denied&state=state-123';
    let answerDecision: (answer: RouteAnswer) => void = () => {};
    const { backend, assign } = openConsentPage({
      [DECISION]: () => new Promise<RouteAnswer>((resolve) => (answerDecision = resolve)),
    });
    const deny = await screen.findByRole<HTMLButtonElement>('button', { name: 'Deny' });
    act(() => screen.getByRole('checkbox', { name: 'Remember this decision' }).click());

    act(() => {
      deny.click();
      deny.click();
    });
    expect(deny.disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Approve' }).disabled).toBe(true);
    expect(deny.closest('section')!.getAttribute('aria-busy')).toBe('true');
    await act(async () => answerDecision(json({ data: { redirect_to: denied } })));

    expect(backend.callsTo(DECISION).map((call) => call.body)).toEqual([
      { consent_token: 'consent-token-1', decision: 'deny', remember: false },
    ]);
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(denied);
  });

  it('follows a "redirect" answer at once, without asking', async () => {
    const { assign } = openConsentPage({ [AUTHORIZE]: json({ data: { kind: 'redirect', redirect_to: CALLBACK } }) });

    expect(await screen.findByText(/returning you to the application/i)).toBeTruthy();
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(CALLBACK);
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('shows a request that cannot be returned to the client as an error, without navigating', async () => {
    const { assign } = openConsentPage({
      [AUTHORIZE]: errorEnvelope(400, 'BAD_REQUEST', 'The redirect address is not registered for this application.'),
    });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/this application's request is invalid/i);
    expect(alert.textContent).toContain('The redirect address is not registered for this application.');
    expect(screen.getByText('req-test-1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(assign).not.toHaveBeenCalled();
    expect(currentUrl()).toBe(CONSENT_URL);
  });

  it('refuses a redirect_to that would run script in this page', async () => {
    const { assign } = openConsentPage({
      [AUTHORIZE]: json({ data: { kind: 'redirect', redirect_to: 'javascript:alert(1)' } }),
    });

    expect((await screen.findByRole('alert')).textContent).toMatch(/will not open/i);
    expect(assign).not.toHaveBeenCalled();
  });

  it('goes to sign-in, returning here, when the session is refused (401)', async () => {
    const { assign } = openConsentPage({
      [AUTHORIZE]: errorEnvelope(401, 'UNAUTHENTICATED', 'The access token has expired.', {
        reason: 'credential_invalid',
      }),
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
    expect(new URLSearchParams(window.location.search).get('next')).toBe(CONSENT_URL);
    expect(window.sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it('goes to sign-in without calling the backend when nobody is signed in', async () => {
    openAt(CONSENT_URL);
    const backend = stubBackend({});
    render(<App />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(new URLSearchParams(window.location.search).get('next')).toBe(CONSENT_URL);
    expect(backend.callsTo(AUTHORIZE)).toHaveLength(0);
  });

  it('redirects to sign-in once, keeping `next`, under StrictMode double effects', async () => {
    openAt(CONSENT_URL);
    stubBackend({});
    render(
      <StrictMode>
        <App />
      </StrictMode>,
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(new URLSearchParams(window.location.search).get('next')).toBe(CONSENT_URL);
  });

  it('goes to sign-in when the decision is refused with 401', async () => {
    const { assign } = openConsentPage({ [DECISION]: errorEnvelope(401, 'UNAUTHENTICATED', 'Sign in again.') });
    const approve = await screen.findByRole('button', { name: 'Approve' });
    act(() => approve.click());

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(new URLSearchParams(window.location.search).get('next')).toBe(CONSENT_URL);
    expect(assign).not.toHaveBeenCalled();
  });

  it('reports a failed decision and lets the person decide again', async () => {
    let attempt = 0;
    const { backend, assign } = openConsentPage({
      [DECISION]: () =>
        ++attempt === 1
          ? errorEnvelope(503, 'SERVICE_UNAVAILABLE', 'Try again in a moment.')
          : json({ data: { redirect_to: CALLBACK } }),
    });
    const firstTry = await screen.findByRole('button', { name: 'Approve' });
    act(() => firstTry.click());

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Try again in a moment.');
    const approve = screen.getByRole<HTMLButtonElement>('button', { name: 'Approve' });
    expect(approve.disabled).toBe(false);
    act(() => approve.click());

    expect(await screen.findByText(/returning you to example mcp tool/i)).toBeTruthy();
    expect(backend.callsTo(DECISION)).toHaveLength(2);
    expect(assign).toHaveBeenCalledWith(CALLBACK);
  });

  it('shows a loading state while the request is read', () => {
    openConsentPage({ [AUTHORIZE]: () => pending<RouteAnswer>() });

    expect(screen.getByRole('status').textContent).toMatch(/reading the application's request/i);
    expect(screen.getByRole('heading', { level: 1 }).closest('section')!.getAttribute('aria-busy')).toBe('true');
  });

  it('offers a retry when the backend cannot be reached', async () => {
    let attempt = 0;
    openConsentPage({
      [AUTHORIZE]: () => (++attempt === 1 ? errorEnvelope(502, 'INTERNAL', 'Bad gateway.') : consentPrompt),
    });

    const alert = await screen.findByRole('alert');
    act(() => within(alert).getByRole('button', { name: 'Try again' }).click());

    expect(await screen.findByRole('button', { name: 'Approve' })).toBeTruthy();
  });
});
