import type { FlowsActors_ApprovalRequest } from '@wildo/shared-lib';
import { useId, useState, type FormEvent } from 'react';
import { TODOS_KIND, type RecordFieldSpec } from '../records/record-kinds';
import { When } from '../ui/dates';
import { FieldError } from '../ui/form-fields';
import { operationDisplayName } from './operation-names';

/** A date-time for people, in a `<time>` carrying the exact instant. */
export function DateTime({ iso }: { iso: string }) {
  return <When iso={iso} />;
}

/** How one argument is edited: the resource's own field description when there is one, else by its value. */
function specOf(
  name: string,
  value: unknown,
): RecordFieldSpec | { name: string; label: string; kind: 'json' | 'boolean' } {
  const declared = TODOS_KIND.fields.find((field) => field.name === name);
  if (declared) return declared;
  const label =
    name.charAt(0).toUpperCase() +
    name
      .slice(1)
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase();
  if (typeof value === 'boolean') return { name, label, kind: 'boolean' };
  if (typeof value === 'number') return { name, label, kind: 'integer' };
  if (typeof value === 'string') return { name, label, kind: value.length > 80 ? 'textarea' : 'text' };
  return { name, label, kind: 'json' };
}

function textOfValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, null, 2) ?? '';
}

/** The arguments that name what is acted on (shown, never edited: changing them would act on something else). */
const IDENTIFYING = new Set(['id', '_id']);

/**
 * A paused tool call for the person to approve or deny: the operation by its name, its arguments as a form
 * (editable when the tool allows it, sent as `modifiedArguments` if changed) and when the request expires.
 */
export function ApprovalCard({
  approval,
  busy,
  onDecide,
}: {
  approval: FlowsActors_ApprovalRequest;
  busy: boolean;
  onDecide: (decision: 'approve' | 'deny', modifiedArguments?: Record<string, unknown>) => void;
}) {
  const baseId = useId();
  const name = operationDisplayName(approval.functionRef);
  const entries = Object.entries(approval.arguments);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(entries.map(([key, value]) => [key, textOfValue(value)])),
  );
  const [problems, setProblems] = useState<Record<string, string>>({});

  const approve = (event: FormEvent) => {
    event.preventDefault();
    if (!approval.allowArgumentModification) {
      onDecide('approve');
      return;
    }
    const next: Record<string, unknown> = {};
    const found: Record<string, string> = {};
    let changed = false;
    for (const [key, original] of entries) {
      const text = values[key] ?? '';
      if (text === textOfValue(original)) {
        next[key] = original;
        continue;
      }
      changed = true;
      const spec = specOf(key, original);
      if (spec.kind === 'integer') {
        if (!/^-?\d+$/.test(text.trim())) found[key] = 'Enter a whole number.';
        else next[key] = Number(text.trim());
      } else if (spec.kind === 'boolean') next[key] = text === 'true';
      else if (spec.kind === 'json') {
        try {
          next[key] = JSON.parse(text) as unknown;
        } catch {
          found[key] = 'Keep the format shown (a list or a group of values).';
        }
      } else next[key] = text;
    }
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    onDecide('approve', changed ? next : undefined);
  };

  return (
    <section className="approval" aria-labelledby={`${baseId}-title`}>
      <h2 id={`${baseId}-title`} className="section-title">
        Approval needed
      </h2>
      <p>
        The assistant wants to <strong>{name.toLowerCase()}</strong>. Nothing changes until you approve
        {approval.allowArgumentModification ? '; you can change the values first' : ''}. The request expires{' '}
        <DateTime iso={approval.expiresAt} />.
      </p>
      <form className="form" onSubmit={approve} noValidate aria-label={`Approve ${name}`}>
        {entries.map(([key, original]) => {
          const spec = specOf(key, original);
          const id = `${baseId}-argument-${key}`;
          const error = problems[key];
          if (!approval.allowArgumentModification || IDENTIFYING.has(key))
            return (
              <div key={key} className="field">
                <span id={id} className="field__label">
                  {IDENTIFYING.has(key) ? `Which ${name.split(' ').slice(1).join(' ') || 'record'}` : spec.label}
                </span>
                <p className="approval__value" aria-labelledby={id}>
                  {textOfValue(original)}
                </p>
              </div>
            );
          const common = {
            id,
            value: values[key] ?? '',
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error ? `${id}-error` : undefined,
          } as const;
          const set = (value: string) => setValues((current) => ({ ...current, [key]: value }));
          return (
            <div key={key} className="field">
              <label htmlFor={id}>{spec.label}</label>
              {'options' in spec && spec.options ? (
                <select {...common} onChange={(event) => set(event.target.value)}>
                  {spec.options.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              ) : spec.kind === 'boolean' ? (
                <select {...common} onChange={(event) => set(event.target.value)}>
                  <option value="true">Yes</option>
                  <option value="false">No</option>
                </select>
              ) : spec.kind === 'textarea' || spec.kind === 'json' ? (
                <textarea
                  {...common}
                  rows={4}
                  spellCheck={spec.kind !== 'json'}
                  onChange={(event) => set(event.target.value)}
                />
              ) : (
                <input
                  {...common}
                  type="text"
                  inputMode={spec.kind === 'integer' ? 'numeric' : undefined}
                  onChange={(event) => set(event.target.value)}
                />
              )}
              <FieldError id={id} error={error} />
            </div>
          );
        })}
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            Approve
          </button>
          <button type="button" className="button button--danger" disabled={busy} onClick={() => onDecide('deny')}>
            Deny
          </button>
        </div>
      </form>
    </section>
  );
}
