import { useEffect, useState } from 'react';
import { ApiError, describeFailure } from '../api/api.client';
import { openMailedLink, type OpenedLink } from '../api/auth.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { Link } from '../routing/link';
import { navigate } from '../routing/navigation';
import { safeNextPath } from '../routing/safe-next-path';
import { storeAccessToken } from '../session/access-token.store';

const AFTER_SIGNUP_KEY = 'wildo.afterSignup';
const DEFAULT_AFTER_SIGNUP = '/organizations';

/** Remembers, in this browser, where a sign-up asked to go once its link is opened. */
export function rememberPathAfterSignup(path: string): void {
  try {
    window.localStorage.setItem(AFTER_SIGNUP_KEY, path);
  } catch {
    // Without storage the new account goes to its organizations.
  }
}

function pathAfterSignup(): string {
  try {
    const stored = window.localStorage.getItem(AFTER_SIGNUP_KEY);
    window.localStorage.removeItem(AFTER_SIGNUP_KEY);
    return stored ? safeNextPath(stored) : DEFAULT_AFTER_SIGNUP;
  } catch {
    return DEFAULT_AFTER_SIGNUP;
  }
}

type LinkState =
  | { kind: 'opening' }
  | { kind: 'confirmed'; email: string }
  | { kind: 'used' }
  | { kind: 'registered' }
  | { kind: 'failed'; message: string };

// A link works once: React may run the effect twice (strict mode), so each token is opened at most once per page.
const opening = new Map<string, Promise<OpenedLink>>();

/** The token in the page's fragment (`#token=...`), dropped from the address bar so it is not kept in history. */
function takeToken(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  return token;
}

/**
 * `/verify-email#token=...`: the link of a sign-up or confirmation mail. A sign-up link creates the account and signs
 * in (then goes on); a confirmation link confirms the address of an existing account.
 */
export function VerifyEmailPage() {
  useDocumentTitle('Confirming your address');
  const [token] = useState(takeToken);
  const [state, setState] = useState<LinkState>({ kind: 'opening' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) return;
    let current = opening.get(token);
    if (!current) {
      current = openMailedLink(token);
      opening.set(token, current);
    }
    let active = true;
    current.then(
      (opened) => {
        if (!active) return;
        if (opened.kind === 'confirmed') return setState({ kind: 'confirmed', email: opened.user.email });
        storeAccessToken(opened.accessToken);
        navigate(pathAfterSignup(), { replace: true });
      },
      (error: unknown) => {
        if (!active) return;
        // A failure that was not an answer about the link itself may be tried again.
        if (!(error instanceof ApiError) || error.status >= 500) opening.delete(token);
        if (error instanceof ApiError && error.status === 401) setState({ kind: 'used' });
        else if (error instanceof ApiError && error.status === 409) setState({ kind: 'registered' });
        else setState({ kind: 'failed', message: describeFailure(error) });
      },
    );
    return () => {
      active = false;
    };
  }, [token, attempt]);

  return (
    <section className="panel panel--narrow" aria-labelledby="verify-title" aria-busy={state.kind === 'opening'}>
      <h1 id="verify-title" className="page-title">
        {state.kind === 'confirmed' ? 'Address confirmed' : 'Your address'}
      </h1>
      <LinkOutcome
        state={token ? state : { kind: 'used' }}
        onRetry={() => {
          setState({ kind: 'opening' });
          setAttempt((n) => n + 1);
        }}
      />
    </section>
  );
}

function LinkOutcome({ state, onRetry }: { state: LinkState; onRetry: () => void }) {
  switch (state.kind) {
    case 'opening':
      return <LoadingStatus>Opening your link…</LoadingStatus>;
    case 'confirmed':
      return (
        <>
          <p role="status">
            <strong>{state.email}</strong> is confirmed as yours. Invitations sent to it are now yours to answer.
          </p>
          <Link className="button" to="/account/invitations">
            See your invitations
          </Link>
        </>
      );
    case 'registered':
      return (
        <p role="alert">
          This address already has an account.{' '}
          <Link className="tap-link" to="/login">
            Sign in
          </Link>{' '}
          instead.
        </p>
      );
    case 'used':
      return (
        <p role="alert">
          This link was already used, has expired or is incomplete.{' '}
          <Link className="tap-link" to="/signup">
            Sign up again
          </Link>{' '}
          to get a new one, or{' '}
          <Link className="tap-link" to="/login">
            sign in
          </Link>{' '}
          if your account already exists.
        </p>
      );
    case 'failed':
      return <FailureAlert summary="Your link could not be opened." message={state.message} onRetry={onRetry} />;
  }
}
