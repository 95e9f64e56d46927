import { useState, type FormEvent } from 'react';
import * as z from 'zod/mini';
import { describeFailure, requestJson } from '../api/api.client';
import { FailureAlert } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { Link } from '../routing/link';
import { navigate } from '../routing/navigation';
import { loginPath, safeNextPath } from '../routing/safe-next-path';
import { storeAccessToken } from '../session/access-token.store';
import { fieldProblemsOf, TextField, type FieldProblems } from '../ui/form-fields';

const SignupResponseSchema = z.object({ data: z.object({ accessToken: z.string() }) });

/** `/signup?next=<path>`: creates an account and signs in; a new account goes on to create an organization. */
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

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    setBusy(true);
    setFailure(null);
    try {
      const body = await requestJson('/api/v1/auth/signup', {
        method: 'POST',
        body: { email: email.trim(), password, ...(displayName.trim() ? { displayName: displayName.trim() } : {}) },
        schema: SignupResponseSchema,
      });
      storeAccessToken(body.data.accessToken);
      navigate(next, { replace: true });
    } catch (error) {
      setBusy(false);
      setProblems(fieldProblemsOf(error));
      setFailure(describeFailure(error));
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    }
  };

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
