import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../routing/document-title';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import {
  FlowsActors_ApprovalQueue,
  FlowsActors_ApprovalRequest,
  FlowsActorsProvider,
  useFlowsActors,
} from '@wildo-ai/saas-frontend-lib';
import type { FlowsActorsViewDefinition } from '@wildo-ai/saas-frontend-lib/companion';
import { TODO_ASSISTANT_VIEW_ROUTE } from './todo-assistant.view';
import type { TranscriptEntry } from './use-todo-assistant';
import { plainText } from '../ui/people-words';
import { operationDisplayName } from './operation-names';
import { ConversationList } from './conversation-list';
import './assistant.css';

/** The longest message the backend accepts. */
const MAX_MESSAGE_CHARS = 32_000;

/** Where a tool call stands, in a word or two a person reads at a glance. */
function toolSummary(entry: Extract<TranscriptEntry, { kind: 'tool' }>): string {
  if (entry.decision === 'deny') return 'Denied by you';
  if (entry.outcome?.ok === false) return `Failed: ${plainText(entry.outcome.error.message)}`;
  if (entry.outcome?.ok === true) return entry.decision === 'approve' ? 'Approved and done' : 'Done';
  if (entry.waiting) return 'Waiting for your approval';
  return entry.decision === 'approve' ? 'Approved, running…' : 'Running…';
}

/** The arguments of a call as short `name: value` pairs (no JSON braces). */
function argumentsText(args: Record<string, unknown>): string {
  const text = Object.entries(args)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

function Entry({ entry }: { entry: TranscriptEntry }) {
  switch (entry.kind) {
    case 'user':
      return (
        <li className={`assistant__entry assistant__entry--user${entry.notSent ? ' assistant__entry--not-sent' : ''}`}>
          <span className="assistant__who">{entry.notSent ? 'You (not sent)' : 'You'}</span>
          <p className="assistant__text">{entry.text}</p>
          {entry.notSent ? (
            <p className="field__error" role="alert">
              Not sent. {entry.notSent}
            </p>
          ) : null}
        </li>
      );
    case 'assistant':
      return (
        <li className="assistant__entry">
          <span className="assistant__who">Assistant</span>
          <p className="assistant__text">{entry.text}</p>
        </li>
      );
    case 'tool':
      return (
        <li className="assistant__entry assistant__entry--tool">
          <span className="assistant__who">Tool</span>
          <p className="assistant__tool">
            <strong>{operationDisplayName(entry.functionRef)}</strong>
            {Object.keys(entry.arguments).length ? (
              <span className="assistant__args"> ({argumentsText(entry.arguments)})</span>
            ) : null}{' '}
            — {toolSummary(entry)}
          </p>
        </li>
      );
  }
}

/** `/organizations/:organizationId/assistant`: the todo assistant's conversation, its approval card and the approval queue. */
export function TodoAssistantPage({
  organizationId,
  view = TODO_ASSISTANT_VIEW_ROUTE,
  title = 'Todo assistant',
}: {
  organizationId: string;
  /** The declared view (its `systemRef` is the actor system the page talks to). */
  view?: Pick<FlowsActorsViewDefinition, 'ref' | 'systemRef'>;
  title?: string;
}) {
  return (
    <FlowsActorsProvider organizationId={organizationId} systemRef={view.systemRef}>
      <AssistantConversation viewRef={view.ref} title={title} />
    </FlowsActorsProvider>
  );
}

/** The conversation of the flows-actors context: messages, its pending decision beside them, and the queue. */
function AssistantConversation({ viewRef, title }: { viewRef: string; title: string }) {
  useDocumentTitle(title);
  const messageId = useId();
  const { state, send } = useFlowsActors();
  const logRef = useRef<HTMLDivElement>(null);

  // The conversation scrolls inside a frame of fixed height, kept at its newest line: a streamed reply grows
  // the frame's content, never the page, so nothing below it moves.
  useEffect(() => {
    const frame = logRef.current;
    if (frame) frame.scrollTop = frame.scrollHeight;
  }, [state.entries]);
  const [message, setMessage] = useState('');

  useEffect(() => {
    if (!readAccessToken()) redirectToLogin();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!text || state.streaming) return;
    setMessage('');
    await send(text);
  };

  const blocked = state.streaming || state.approval !== null;
  return (
    <section
      className="panel assistant"
      aria-labelledby="assistant-title"
      aria-busy={state.streaming}
      data-view={viewRef}
    >
      <h1 id="assistant-title" className="page-title">
        {title}
      </h1>
      <p className="muted">Ask about your todos. The assistant asks for your approval before it changes anything.</p>
      <ConversationList />

      {/*
        Two columns from 60rem: the conversation and its composer on the left, the pending decision and the
        queue on the right, so an approval arriving never moves the composer. The decision slot has a fixed
        height there (its content scrolls inside if longer); on narrow screens it follows the composer.
      */}
      <div className="assistant__layout">
        <div className="assistant__conversation">
          {/* The log role sits on a wrapper: on the <ol> itself it would hide the list from assistive technology. */}
          {/* Focusable so keyboard users can scroll it. */}
          <div
            ref={logRef}
            role="log"
            aria-live="polite"
            aria-label="Conversation"
            className="assistant__log-frame"
            tabIndex={0}
          >
            <ol className="assistant__log">
              {state.entries.map((entry) => (
                <Entry key={entry.id} entry={entry} />
              ))}
            </ol>
          </div>
          <p role="status" className="live assistant__notice">
            {state.notice}
          </p>

          <form className="form assistant__composer" onSubmit={(event) => void submit(event)}>
            <div className="field">
              <label htmlFor={messageId}>Message</label>
              <textarea
                id={messageId}
                rows={3}
                maxLength={MAX_MESSAGE_CHARS}
                value={message}
                onChange={(event) => setMessage(event.target.value)}
                onKeyDown={(event) => {
                  // Enter sends, Shift+Enter adds a line; an IME composition keeps its own Enter.
                  if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
                  event.preventDefault();
                  event.currentTarget.form?.requestSubmit();
                }}
                aria-describedby={`${messageId}-hint`}
                placeholder="Rename my todo about groceries to “Weekly shop”"
              />
              <p id={`${messageId}-hint`} className="field__hint muted">
                Enter sends; Shift+Enter adds a line.
              </p>
            </div>
            <div className="actions">
              <button type="submit" className="button button--primary" disabled={blocked || message.trim() === ''}>
                Send
              </button>
            </div>
            {/* Kept one line high, empty or not, so the note appearing moves nothing below it. */}
            <p className="muted assistant__composer-note">
              {state.approval && !state.streaming ? 'Approve or deny the proposed action to continue.' : ''}
            </p>
          </form>
          {state.error ? (
            <div role="alert" className="status status--error">
              <p className="status__summary">The assistant could not continue.</p>
              <p className="status__detail">{state.error}</p>
            </div>
          ) : null}
        </div>

        <div className="assistant__decisions">
          <div className="assistant__approval-slot">
            {/* The request renders only for this conversation's pending decision; else the slot says what it is for. */}
            {state.executionId && state.approval?.executionId === state.executionId ? (
              <FlowsActors_ApprovalRequest executionId={state.executionId} />
            ) : (
              <p className="muted assistant__approval-empty">
                When the assistant proposes a change, it waits here for your approval.
              </p>
            )}
          </div>
          <FlowsActors_ApprovalQueue />
        </div>
      </div>
    </section>
  );
}
