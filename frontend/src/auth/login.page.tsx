import { useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, describeFailure } from '../api/api.client';
import { login } from '../api/auth.client';
import { useDocumentTitle } from '../routing/document-title';
import { Link } from '../routing/link';
import { navigate } from '../routing/navigation';
import { safeNextPath } from '../routing/safe-next-path';
import { storeAccessToken } from '../session/access-token.store';
import { fieldErrorsFromProblems, validateLoginForm, type LoginFieldErrors } from './login-form.validation';

function signInFailureMessage(error: unknown): string {
  return describeFailure(error);
}

/** `/login?next=<path>`: email and password sign-in; returns to `next` when it is a path of this app. */
export function LoginPage({ search }: { search: string }) {
  useDocumentTitle('Sign in');
  const next = safeNextPath(new URLSearchParams(search).get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<LoginFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const ids = useId();

  const showFieldErrors = (errors: LoginFieldErrors) => {
    setFieldErrors(errors);
    if (errors.email) emailRef.current?.focus();
    else if (errors.password) passwordRef.current?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submittingRef.current) return;
    setFormError(null);
    const errors = validateLoginForm({ email, password });
    showFieldErrors(errors);
    if (errors.email || errors.password) return;

    submittingRef.current = true;
    setSubmitting(true);
    try {
      const session = await login({ email: email.trim(), password });
      storeAccessToken(session.accessToken);
      navigate(next, { replace: true });
    } catch (error) {
      submittingRef.current = false;
      setSubmitting(false);
      if (error instanceof ApiError && error.status === 400 && error.details.problems?.length) {
        showFieldErrors(fieldErrorsFromProblems(error.details.problems));
      }
      setFormError(signInFailureMessage(error));
    }
  };

  const describedBy = (field: keyof LoginFieldErrors) => (fieldErrors[field] ? `${ids}-${field}-error` : undefined);
  return (
    <section className="panel panel--narrow" aria-labelledby={`${ids}-title`}>
      <h1 id={`${ids}-title`} className="page-title">
        Sign in
      </h1>
      {next.startsWith('/oauth/authorize') ? (
        <p className="muted">An application asked to connect to your account. Sign in to review its request.</p>
      ) : null}
      <form className="form" noValidate aria-busy={submitting} onSubmit={(event) => void onSubmit(event)}>
        {formError ? (
          <div role="alert" className="status status--error">
            <p className="status__summary">You are not signed in.</p>
            <p className="status__detail">{formError}</p>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${ids}-email`}>Email</label>
          <input
            ref={emailRef}
            id={`${ids}-email`}
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            spellCheck={false}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={fieldErrors.email ? true : undefined}
            aria-describedby={describedBy('email')}
          />
          {fieldErrors.email ? (
            <p id={`${ids}-email-error`} className="field__error">
              {fieldErrors.email}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${ids}-password`}>Password</label>
          <input
            ref={passwordRef}
            id={`${ids}-password`}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={fieldErrors.password ? true : undefined}
            aria-describedby={describedBy('password')}
          />
          {fieldErrors.password ? (
            <p id={`${ids}-password-error`} className="field__error">
              {fieldErrors.password}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button--primary button--block" disabled={submitting}>
          {submitting ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="muted">
        New here?{' '}
        <Link className="tap-link" to={`/signup?${new URLSearchParams({ next }).toString()}`}>
          Create an account
        </Link>
        .
      </p>
    </section>
  );
}
