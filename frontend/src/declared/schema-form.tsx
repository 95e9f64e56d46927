import { useId, useState, type FormEvent } from 'react';
import { fieldProblemsOf, SelectField, TextAreaField, TextField, type FieldProblems } from '../ui/form-fields';
import { bodyOf, initialValuesOf, problemsOf, type SchemaField } from './schema-fields';

/** A checkbox with its label and error (a boolean field). */
function CheckboxField({
  label,
  checked,
  onChange,
  error,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div className="field field--inline">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <label htmlFor={id}>{label}</label>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** One field of a generated form, by its control. */
export function SchemaFieldControl({
  field,
  value,
  onChange,
  error,
  anyLabel,
}: {
  field: SchemaField;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  /** For filters: the label of the empty choice (any value). */
  anyLabel?: string;
}) {
  const label = field.required || anyLabel ? field.label : `${field.label} (optional)`;
  if (field.control === 'checkbox' && !anyLabel)
    return (
      <CheckboxField
        label={field.label}
        checked={value === 'true'}
        onChange={(checked) => onChange(String(checked))}
        error={error}
      />
    );
  if (field.control === 'select' || field.control === 'checkbox') {
    const choices =
      field.control === 'checkbox'
        ? ([
            ['true', 'Yes'],
            ['false', 'No'],
          ] as const)
        : (field.options ?? []);
    const empty = anyLabel ?? (field.required ? undefined : 'None');
    return (
      <SelectField
        label={label}
        value={value}
        onChange={onChange}
        options={empty !== undefined ? [['', empty], ...choices] : choices}
        error={error}
      />
    );
  }
  if (field.control === 'textarea')
    return <TextAreaField label={label} value={value} onChange={onChange} error={error} />;
  return (
    <TextField
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      type={field.email ? 'email' : 'text'}
      {...(field.hint ? { hint: field.hint } : {})}
    />
  );
}

/**
 * A form generated from an operation's input schema: each value is checked in plain words before it is sent, and
 * what the server still refuses is shown beside its field; the first invalid field takes focus.
 */
export function SchemaForm({
  title,
  fields,
  record,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  /** The form's heading and accessible name. */
  title: string;
  fields: readonly SchemaField[];
  /** Editing: the record whose values fill the form (only changed fields are sent). */
  record?: Record<string, unknown>;
  submitLabel: string;
  busy: boolean;
  /** Resolves with the failure, or `null` when it succeeded. */
  onSubmit: (body: Record<string, unknown>) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [initial] = useState(() => initialValuesOf(fields, record));
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<FieldProblems>({});
  const set = (name: string) => (value: string) => setValues((current) => ({ ...current, [name]: value }));

  const focusFirstProblem = (form: HTMLFormElement) =>
    requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const found = problemsOf(fields, values);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      focusFirstProblem(form);
      return;
    }
    const failure = await onSubmit(bodyOf(fields, values, record ? initial : undefined));
    const refused = failure ? fieldProblemsOf(failure) : {};
    setProblems(refused);
    if (!failure && !record) setValues(initialValuesOf(fields));
    if (Object.keys(refused).length > 0) focusFirstProblem(form);
  };

  return (
    <form className="form" noValidate aria-busy={busy} aria-label={title} onSubmit={(event) => void submit(event)}>
      <h2 className="section-title">{title}</h2>
      {fields.map((field) => (
        <SchemaFieldControl
          key={field.name}
          field={field}
          value={values[field.name] ?? ''}
          onChange={set(field.name)}
          error={problems[field.name]}
        />
      ))}
      {problems['(request)'] || problems['(root)'] ? (
        <p className="field__error">{problems['(request)'] ?? problems['(root)']}</p>
      ) : null}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
