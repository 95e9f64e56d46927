import { FailureAlert } from '../page-states';

/** The alert of a failed action, as `useAction` reports it. */
export function FailureAlertOf({ failure }: { failure: { summary: string; message: string } }) {
  return <FailureAlert summary={failure.summary} message={failure.message} />;
}
