/** Field-level problems of the sign-in form, keyed by field. */
export interface LoginFieldErrors {
  email?: string;
  password?: string;
}

/** Checks the sign-in form before it is sent; an empty result means it can be sent. */
export function validateLoginForm(values: { email: string; password: string }): LoginFieldErrors {
  const errors: LoginFieldErrors = {};
  const email = values.email.trim();
  if (email.length === 0) errors.email = 'Enter your email address.';
  else if (!/^[^\s@]+@[^\s@]+$/.test(email)) errors.email = 'Enter an email address like name@example.com.';
  if (values.password.length === 0) errors.password = 'Enter your password.';
  return errors;
}

/** Maps the backend's input problems (`path` names a field) onto the form's fields. */
export function fieldErrorsFromProblems(problems: readonly { path: string; expected: string }[]): LoginFieldErrors {
  const errors: LoginFieldErrors = {};
  for (const problem of problems) {
    if (problem.path === 'email') errors.email ??= 'Check your email address.';
    if (problem.path === 'password') errors.password ??= 'Check your password.';
  }
  return errors;
}
