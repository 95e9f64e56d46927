import type { FlowsActors_ApprovalRequest } from '@wildo/shared-lib';
import { useId, useState, type FormEvent } from 'react';
import { When } from '../ui/dates';

/** A date-time for people, in a `<time>` carrying the exact instant. */
export function DateTime({ iso }: { iso: string }) {
  return <When iso={iso} />;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A paused tool call for the person to approve or deny: function, arguments and expiry. When the tool allows
 * it, the arguments are editable JSON, sent as `modifiedArguments` if they were changed.
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
  const original = JSON.stringify(approval.arguments, null, 2);
  const [text, setText] = useState(original);
  const [problem, setProblem] = useState<string | null>(null);

  const approve = (event: FormEvent) => {
    event.preventDefault();
    if (!approval.allowArgumentModification || text === original) {
      onDecide('approve');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isRecord(parsed)) {
      setProblem('Enter the arguments as a JSON object, for example {"title": "New title"}.');
      return;
    }
    setProblem(null);
    onDecide('approve', parsed);
  };

  return (
    <section className="approval" aria-labelledby={`${baseId}-title`}>
      <h2 id={`${baseId}-title`} className="section-title">
        Approval needed
      </h2>
      <p>
        The assistant wants to run <code>{approval.functionRef}</code>. Nothing changes until you approve.
      </p>
      <form className="form" onSubmit={approve} noValidate>
        <dl className="facts">
          <div className="facts__row">
            <dt>Function</dt>
            <dd>
              <code>{approval.functionRef}</code>
            </dd>
          </div>
          <div className="facts__row">
            <dt>Expires</dt>
            <dd>
              <DateTime iso={approval.expiresAt} />
            </dd>
          </div>
        </dl>
        {approval.allowArgumentModification ? (
          <div className="field">
            <label htmlFor={`${baseId}-arguments`}>Arguments (JSON, editable)</label>
            <textarea
              id={`${baseId}-arguments`}
              className="approval__arguments"
              rows={Math.min(12, original.split('\n').length + 1)}
              value={text}
              spellCheck={false}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${baseId}-problem` : undefined}
              onChange={(event) => setText(event.target.value)}
            />
            {problem ? (
              <p id={`${baseId}-problem`} className="field__error">
                {problem}
              </p>
            ) : null}
          </div>
        ) : (
          <div className="field">
            <span id={`${baseId}-arguments-label`}>Arguments</span>
            <pre className="approval__arguments" aria-labelledby={`${baseId}-arguments-label`}>
              {original}
            </pre>
          </div>
        )}
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
