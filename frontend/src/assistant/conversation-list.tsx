import { useEffect, useState } from 'react';
import { useFlowsActors } from '@wildo-ai/saas-frontend-lib';
import { readAccessToken } from '../session/access-token.store';
import { When } from '../ui/dates';
import { listPendingApprovals } from './assistant.client';
import { rememberedConversations, type ConversationSummary } from './conversations';

/** The person's earlier conversations with this assistant, each to reopen, and a way to start a new one. */
export function ConversationList() {
  const { organizationId, systemRef, state, reopen, startNew } = useFlowsActors();
  const [conversations, setConversations] = useState<ConversationSummary[]>([]);
  // Read again when a conversation starts, so the new one is listed.
  useEffect(
    () => setConversations(rememberedConversations(organizationId, systemRef)),
    [organizationId, systemRef, state.executionId],
  );
  const open = async (executionId: string) => {
    const accessToken = readAccessToken();
    const pending = accessToken ? await listPendingApprovals(accessToken).catch(() => []) : [];
    await reopen(executionId, pending);
  };
  return (
    // Always one line, closed until asked for: a conversation starting (and being listed) moves nothing on the page.
    <details className="conversations">
      <summary>Your conversations ({conversations.length})</summary>
      {conversations.length === 0 ? <p className="muted">Conversations you start here are listed to reopen.</p> : null}
      <ul className="conversations__list">
        {conversations.map((item) => (
          <li key={item.executionId}>
            <button
              type="button"
              className="link-button tap-link"
              aria-current={item.executionId === state.executionId ? 'true' : undefined}
              onClick={() => void open(item.executionId)}
            >
              {item.title}
            </button>{' '}
            <span className="muted">
              <When iso={item.startedAt} />
            </span>
          </li>
        ))}
      </ul>
      {state.executionId ? (
        <button type="button" className="button" onClick={startNew}>
          New conversation
        </button>
      ) : null}
    </details>
  );
}
