import { useEffect, useRef, useState } from 'react';

/**
 * A secret shown once (`plainKey`, `plainSecret`): a warning, the value, a copy button and a button to
 * dismiss it. It takes focus when it appears so keyboard and screen-reader users meet it first.
 */
export function OneTimeSecret({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div ref={ref} tabIndex={-1} className="status status--warn secret" role="region" aria-label={label}>
      <p className="status__summary">{label}: copy it now. It is shown only once and cannot be shown again.</p>
      <code className="secret__value break-anywhere" data-testid="one-time-secret">
        {value}
      </code>
      <div className="actions">
        <button type="button" className="button" onClick={() => void copy()}>
          Copy {label.charAt(0).toLowerCase() + label.slice(1)}
        </button>
        <button type="button" className="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
      <p role="status" className="live">
        {copied === 'copied'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Copy failed: select the text and copy it.'
            : ''}
      </p>
    </div>
  );
}
