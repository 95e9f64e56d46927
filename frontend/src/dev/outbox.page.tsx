import { When } from '../ui/dates';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, describeFailure } from '../api/api.client';
import { fetchOutbox, type OutboxMail } from '../api/outbox.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { TextField } from '../ui/form-fields';

type OutboxState =
  | { kind: 'loading' }
  | { kind: 'ready'; mails: OutboxMail[] }
  | { kind: 'absent' }
  | { kind: 'failed'; message: string };

/**
 * `/dev/outbox`: in development, the mails the server would have sent (sign-up links, invitations), newest first,
 * so a person can follow a link without a mail server.
 */
export function OutboxPage() {
  useDocumentTitle('Outbox');
  const [address, setAddress] = useState('');
  const [filter, setFilter] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<OutboxState>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    fetchOutbox(filter, controller.signal).then(
      (mails) => {
        if (!controller.signal.aborted) setState({ kind: 'ready', mails });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) setState({ kind: 'absent' });
        else setState({ kind: 'failed', message: describeFailure(error) });
      },
    );
    return () => controller.abort();
  }, [filter, attempt]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilter(address);
    setAttempt((n) => n + 1);
  };

  return (
    <section className="panel" aria-labelledby="outbox-title" aria-busy={state.kind === 'loading'}>
      <h1 id="outbox-title" className="page-title">
        Outbox
      </h1>
      <p className="muted">
        This development server sends no mail. The messages it would have sent are kept here instead: open a link to
        finish signing up or to answer an invitation. Nothing here left this machine.
      </p>
      <form className="form form--inline" role="search" onSubmit={onSubmit}>
        <TextField
          label="Show mails to (empty: everyone)"
          type="email"
          name="to"
          value={address}
          onChange={setAddress}
        />
        <button type="submit" className="button">
          Show
        </button>
      </form>
      <OutboxBody state={state} onRetry={() => setAttempt((n) => n + 1)} />
    </section>
  );
}

function OutboxBody({ state, onRetry }: { state: OutboxState; onRetry: () => void }) {
  switch (state.kind) {
    case 'loading':
      return <LoadingStatus>Loading the outbox…</LoadingStatus>;
    case 'absent':
      return (
        <p role="status" className="status status--warn">
          This server has no outbox: it sends its mail through a mail server, or runs in production.
        </p>
      );
    case 'failed':
      return <FailureAlert summary="The outbox could not be loaded." message={state.message} onRetry={onRetry} />;
    case 'ready':
      if (state.mails.length === 0) return <p role="status">No mail yet.</p>;
      return (
        <ol className="outbox" aria-label="Mails, newest first">
          {state.mails.map((mail) => (
            <li key={mail.id} className="outbox__mail">
              <article aria-labelledby={`mail-${mail.id}`}>
                <h2 id={`mail-${mail.id}`} className="panel__title">
                  {mail.subject}
                </h2>
                <p className="muted">
                  To {mail.to}, <When iso={mail.sentAt} />
                </p>
                <p className="outbox__text">{withLinks(mail.text)}</p>
              </article>
            </li>
          ))}
        </ol>
      );
  }
}

/** The mail's text with its web addresses made into links (the text is shown as text, never as HTML). */
function withLinks(text: string): ReactNode[] {
  return text.split(/(https?:\/\/[^\s<>"')]+)/g).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={part}>
        {part}
      </a>
    ) : (
      part
    ),
  );
}
