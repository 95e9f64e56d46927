import type { PendingApproval } from '../engine/agents/approvals/approval.service.js';
import type { TurnEvent } from '../engine/agents/runtime/turn-events.js';

/** A turn as a client reads it: the HTTP status, the events in order, and the error envelope when it failed. */
export interface TurnResult {
  status: number;
  events: TurnEvent[];
  /** `{ error: { code, message, ... } }`: the refusal answered before streaming, or the stream's `error` event. */
  error?: unknown;
}

/** Splits a server-sent-events body into turn events (and the `error` event's envelope, kept apart). */
export function parseTurnStream(text: string): { events: TurnEvent[]; error?: unknown } {
  const events: TurnEvent[] = [];
  let error: unknown;
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n');
    const data = lines
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6))
      .join('\n');
    if (data === '') continue;
    const name = lines.find((line) => line.startsWith('event: '))?.slice(7);
    const parsed: TurnEvent = JSON.parse(data);
    if (name === 'error') error = parsed;
    else events.push(parsed);
  }
  return error === undefined ? { events } : { events, error };
}

/** The approvals a turn is waiting for (its `approval_required` events). */
export function pendingApprovalsOf(events: readonly TurnEvent[]): PendingApproval[] {
  return events.flatMap((event) => (event.type === 'approval_required' ? [event.approval] : []));
}

async function readTurn(response: Response): Promise<TurnResult> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return { status: response.status, events: [], error: text === '' ? undefined : JSON.parse(text) };
  }
  return { status: response.status, ...parseTurnStream(text) };
}

/** A person's bearer token and, optionally, the `fetch` to use. */
export interface TurnClientOptions {
  token: string;
  fetch?: typeof fetch;
}

/**
 * Sends a message to an actor system (`.../flows-actors/systems/:systemRef/turns`) and reads the whole streamed turn.
 *
 * @example
 * const turn = await postTurn(`${api}/organizations/${org}/flows-actors/systems/todo-assistant/turns`, { token, message: 'Hi' });
 */
export async function postTurn(
  turnsUrl: string,
  options: TurnClientOptions & { message: string; executionId?: string },
): Promise<TurnResult> {
  const body = { message: options.message, ...(options.executionId ? { executionId: options.executionId } : {}) };
  const response = await (options.fetch ?? fetch)(turnsUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return readTurn(response);
}

/**
 * Approves or denies a paused tool call with the token its `approval_required` event carried, and reads the rest
 * of the turn. `apiUrl` is the API root (`http://localhost:4241/api/v1`).
 *
 * @example
 * const [approval] = pendingApprovalsOf(turn.events);
 * const rest = await decideApproval(api, { token, approval, decision: 'approve' });
 */
export async function decideApproval(
  apiUrl: string,
  options: TurnClientOptions & {
    approval: Pick<PendingApproval, 'approvalId' | 'approvalToken'>;
    decision: 'approve' | 'deny';
    modifiedArguments?: Record<string, unknown>;
  },
): Promise<TurnResult> {
  const body = {
    approvalToken: options.approval.approvalToken,
    decision: options.decision,
    ...(options.modifiedArguments ? { modifiedArguments: options.modifiedArguments } : {}),
  };
  const response = await (options.fetch ?? fetch)(
    `${apiUrl}/flows-actors/approvals/${encodeURIComponent(options.approval.approvalId)}/decision`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  );
  return readTurn(response);
}
