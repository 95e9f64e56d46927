import { useState, type FormEvent } from 'react';
import { describeFailure } from '../api/api.client';
import { hasDevelopmentOutbox, requestSignup } from '../api/auth.client';
import { FailureAlert } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { Link } from '../routing/link';
import { loginPath, safeNextPath } from '../routing/safe-next-path';
import { fieldProblemsOf, TextField, type FieldProblems } from '../ui/form-fields';
import { emailProblem } from '../ui/people-words';
import { rememberPathAfterSignup } from './verify-email.page';

/** A sign-up whose link is on its way. */
interface Sent {
  email: string;
  hours: number;
  outbox: boolean;
}

/**
 * `/signup?next=<path>`: asks for the link that creates the account. The account exists once the link mailed to the
 * address is opened (`/verify-email`), which signs the person in and goes on to `next` (default: their organizations).
 */
export function SignupPage({ search }: { search: string }) {
  useDocumentTitle('Create an account');
  const requested = new URLSearchParams(search).get('next');
  const next = requested && requested !== '/' ? safeNextPath(requested) : '/organizations';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [problems, setProblems] = useState<FieldProblems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<Sent | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    setFailure(null);
    // The form's own checks first: a person learns about `mara` (not an address) without a round trip.
    const own: FieldProblems = {};
    const addressProblem = emailProblem(email);
    if (addressProblem) own.email = addressProblem;
    if (password.length < 10) own.password = 'Use at least 10 characters.';
    setProblems(own);
    if (Object.keys(own).length > 0) {
      setFailure(
        `Check the marked ${Object.keys(own).length === 1 ? 'field' : 'fields'}: ${Object.values(own).join(' ')}`,
      );
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    try {
      const address = email.trim();
      const hours = await requestSignup({
        email: address,
        password,
        ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
      });
      rememberPathAfterSignup(next);
      setSent({ email: address, hours, outbox: await hasDevelopmentOutbox() });
      setBusy(false);
    } catch (error) {
      setBusy(false);
      setProblems(fieldProblemsOf(error));
      setFailure(describeFailure(error));
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    }
  };

  if (sent) return <CheckYourInbox sent={sent} onAgain={() => setSent(null)} />;

  return (
    <section className="panel panel--narrow" aria-labelledby="signup-title">
      <h1 id="signup-title" className="page-title">
        Create an account
      </h1>
      <form className="form" noValidate aria-busy={busy} onSubmit={(event) => void onSubmit(event)}>
        {failure ? <FailureAlert summary="Your account was not created." message={failure} /> : null}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={setEmail}
          error={problems.email}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          hint="At least 10 characters."
          value={password}
          onChange={setPassword}
          error={problems.password}
        />
        <TextField
          label="Display name (optional)"
          name="displayName"
          autoComplete="name"
          value={displayName}
          onChange={setDisplayName}
          error={problems.displayName}
        />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p className="muted">
        Already have an account?{' '}
        <Link className="tap-link" to={loginPath(next)}>
          Sign in
        </Link>
        .
      </p>
    </section>
  );
}

/** After a sign-up: where the link went, how long it works, and (on a development server) where the mail waits. */
function CheckYourInbox({ sent, onAgain }: { sent: Sent; onAgain: () => void }) {
  useDocumentTitle('Check your inbox');
  return (
    <section className="panel panel--narrow" aria-labelledby="inbox-title">
      <h1 id="inbox-title" className="page-title" tabIndex={-1}>
        Check your inbox
      </h1>
      <p role="status">
        We sent a link to <strong>{sent.email}</strong>. Open it to finish creating your account: it works once, for{' '}
        {sent.hours} hours.
      </p>
      {sent.outbox ? (
        <p>
          This is a development server: it sends no mail.{' '}
          <Link className="tap-link" to="/dev/outbox">
            Open the outbox
          </Link>{' '}
          to find the link.
        </p>
      ) : null}
      <p className="muted">
        Nothing arrived after a few minutes? Look in your spam folder, or{' '}
        <button type="button" className="link-button" onClick={onAgain}>
          sign up again
        </button>
        . If this address already has an account, the mail says so.
      </p>
    </section>
  );
}
