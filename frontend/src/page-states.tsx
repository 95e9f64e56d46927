import type { ReactNode } from 'react';

/** The announced placeholder of a page whose content is loading. */
export function LoadingStatus({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="muted">
      {children}
    </p>
  );
}

/**
 * The alert of something that failed (loading a page's content, an action): what failed, the backend's reason,
 * and a Try again button when it can be tried again.
 *
 * @example
 * <FailureAlert summary="Your invitations could not be loaded." message={state.message} onRetry={reload} />
 */
export function FailureAlert({
  summary,
  message,
  onRetry,
}: {
  summary: string;
  message: string;
  onRetry?: () => void;
}) {
  return (
    <div role="alert" className="status status--error">
      <p className="status__summary">{summary}</p>
      <p className="status__detail">{message}</p>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
