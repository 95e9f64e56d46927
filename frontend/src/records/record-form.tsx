import { useState, type FormEvent } from 'react';
import { textOf, type ApiRecord } from '../api/rest.client';
import { fieldProblemsOf, SelectField, TextAreaField, TextField, type FieldProblems } from '../ui/form-fields';
import type { RecordKind } from './record-kinds';

function initialValues(kind: RecordKind, record: ApiRecord | null): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of kind.fields) {
    const value = record?.[field.name];
    values[field.name] = value === undefined || value === null ? (field.options?.[0]?.[0] ?? '') : textOf(value);
  }
  if (!record && kind.fields.some((field) => field.name === 'priority')) values.priority = '3';
  return values;
}

/** The request body: text as typed, integers as numbers, empty optional text left out on create. */
function bodyOf(kind: RecordKind, values: Record<string, string>, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of kind.fields) {
    const value = values[field.name] ?? '';
    if (creating && value === '' && !field.required) continue;
    body[field.name] = field.kind === 'integer' ? Number(value) : value;
  }
  return body;
}

/**
 * The create or edit form of a record; the server's field problems are shown beside their fields and the
 * first invalid field takes focus.
 */
export function RecordForm({
  kind,
  record,
  busy,
  onSubmit,
  onCancel,
}: {
  kind: RecordKind;
  record: ApiRecord | null;
  busy: boolean;
  /** Resolves with the failure, or `null` when it was saved. */
  onSubmit: (body: Record<string, unknown>) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState(() => initialValues(kind, record));
  const [problems, setProblems] = useState<FieldProblems>({});
  const set = (name: string) => (value: string) => setValues((current) => ({ ...current, [name]: value }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const failure = await onSubmit(bodyOf(kind, values, record === null));
    const found = failure ? fieldProblemsOf(failure) : {};
    setProblems(found);
    if (!failure && record === null) setValues(initialValues(kind, null));
    if (Object.keys(found).length > 0)
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const legend = record ? `Edit ${kind.singular}` : `New ${kind.singular}`;
  return (
    <form className="form" noValidate aria-busy={busy} aria-label={legend} onSubmit={(event) => void submit(event)}>
      <h2 className="section-title">{legend}</h2>
      {kind.fields.map((field) =>
        field.kind === 'textarea' ? (
          <TextAreaField
            key={field.name}
            label={field.label}
            value={values[field.name] ?? ''}
            onChange={set(field.name)}
            error={problems[field.name]}
          />
        ) : field.options ? (
          <SelectField
            key={field.name}
            label={field.label}
            value={values[field.name] ?? ''}
            onChange={set(field.name)}
            options={field.options}
            error={problems[field.name]}
          />
        ) : (
          <TextField
            key={field.name}
            label={field.label}
            value={values[field.name] ?? ''}
            onChange={set(field.name)}
            error={problems[field.name]}
          />
        ),
      )}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {record ? 'Save changes' : `Create ${kind.singular}`}
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
