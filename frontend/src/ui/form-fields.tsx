import { useId, type ReactNode } from 'react';
import { plainFieldProblems } from './people-words';

/** Field problems by field name (the first segment of the server's problem path). */
export type FieldProblems = Record<string, string>;

/** Groups the server's input problems by field, in plain words, so each is shown beside its field. */
export function fieldProblemsOf(error: unknown): FieldProblems {
  return plainFieldProblems(error);
}

interface FieldShellProps {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (ids: { id: string; describedBy: string | undefined; invalid: true | undefined }) => ReactNode;
}

/** A label, its control, an optional hint and the field's error (linked with `aria-describedby`). */
export function Field({ label, error, hint, children }: FieldShellProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy: described || undefined, invalid: error ? true : undefined })}
      {hint ? (
        <p id={`${id}-hint`} className="field__hint muted">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A field's error under its control (`<id>-error`, for the control's `aria-describedby`); nothing without one. */
export function FieldError({ id, error }: { id: string; error?: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} className="field__error">
      {error}
    </p>
  ) : null;
}

/** A text input with its label and error. */
export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  type = 'text',
  name,
  autoComplete,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'datetime-local' | 'date';
  name?: string;
  autoComplete?: string;
}) {
  return (
    <Field label={label} error={error} {...(hint ? { hint } : {})}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          name={name}
          type={type}
          autoComplete={autoComplete}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

/** A multi-line text field with its label and error. */
export function TextAreaField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  return (
    <Field label={label} error={error}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          rows={4}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

/** A select with its label and error; `options` are `[value, label]` pairs. */
export function SelectField({
  label,
  value,
  onChange,
  options,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<readonly [string, string]>;
  error?: string | undefined;
}) {
  return (
    <Field label={label} error={error}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        >
          {options.map(([optionValue, optionLabel]) => (
            <option key={optionValue} value={optionValue}>
              {optionLabel}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The page's announcement region: polite status for what succeeded (kept mounted so updates are read). */
export function LiveStatus({ message }: { message: string | null }) {
  return (
    <p role="status" className="live">
      {message ?? ''}
    </p>
  );
}
