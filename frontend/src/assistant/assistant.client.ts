import type { FlowsActors_ApprovalRequest, FlowsActors_TurnEvent } from '@wildo/shared-lib';
import { ApiError, requestJson, toApiError } from '../api/api.client';
import { ApprovalListResponseSchema, OrganizationListSchema, type Organization } from './assistant.contracts';
import { SseParser, parseTurnEvent } from './sse';

/** Options shared by the streaming calls. */
export interface TurnStreamOptions {
  accessToken: string;
  signal: AbortSignal;
  /** Called once per validated event, in order. */
  onEvent: (event: FlowsActors_TurnEvent) => void;
}

/** Reads a `text/event-stream` body to its end, validating each event; an invalid event ends the read with an {@link ApiError}. */
export async function readTurnStream(
  response: Response,
  onEvent: (event: FlowsActors_TurnEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (!response.body) throw new ApiError('The server sent an empty reply.', response.status, 'BAD_RESPONSE');
  const reader = response.body.getReader();
  const stopReading = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stopReading, { once: true });
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const dispatch = (text: string) => {
    for (const raw of parser.push(text)) {
      const event = parseTurnEvent(raw);
      if (!event)
        throw new ApiError('The server sent an event in an unexpected format.', response.status, 'BAD_RESPONSE');
      onEvent(event);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted)
        throw signal.reason instanceof Error
          ? signal.reason
          : new DOMException('The stream was aborted.', 'AbortError');
      if (done) break;
      dispatch(decoder.decode(value, { stream: true }));
    }
    // A stream that ends without a final blank line still completes its last event.
    dispatch(`${decoder.decode()}\n\n`);
  } catch (error) {
    stopReading();
    throw error;
  } finally {
    signal?.removeEventListener('abort', stopReading);
  }
}

async function postForStream(path: string, body: unknown, options: TurnStreamOptions): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: {
        Accept: 'text/event-stream',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${options.accessToken}`,
      },
      body: JSON.stringify(body),
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (options.signal.aborted) throw error;
    throw new ApiError('The server could not be reached. Check your connection and try again.', 0, 'NETWORK');
  }
  // Refusals before the stream starts (sign-in, roles, budget, a busy conversation) are ordinary JSON errors.
  if (!response.ok) throw await toApiError(response);
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    throw new ApiError('The server sent a response in an unexpected format.', response.status, 'BAD_RESPONSE');
  }
  try {
    await readTurnStream(response, options.onEvent, options.signal);
  } catch (error) {
    if (options.signal.aborted || error instanceof ApiError) throw error;
    throw new ApiError('The connection was lost before the reply finished.', 0, 'NETWORK');
  }
}

/** Path of a system's turns in an organization. */
export function turnsPath(organizationId: string, systemRef: string): string {
  return `/api/v1/organizations/${encodeURIComponent(organizationId)}/flows-actors/systems/${encodeURIComponent(systemRef)}/turns`;
}

/** `POST .../flows-actors/systems/:systemRef/turns`: starts or continues a conversation and streams the turn. */
export function streamTurn(
  target: { organizationId: string; systemRef: string },
  body: { message: string; executionId?: string },
  options: TurnStreamOptions,
): Promise<void> {
  return postForStream(turnsPath(target.organizationId, target.systemRef), body, options);
}

/** `POST /api/v1/flows-actors/approvals/:approvalId/decision`: decides a paused call and streams the rest of the turn. */
export function streamDecision(
  approval: Pick<FlowsActors_ApprovalRequest, 'approvalId' | 'approvalToken'>,
  decision: { decision: 'approve' | 'deny'; modifiedArguments?: Record<string, unknown> },
  options: TurnStreamOptions,
): Promise<void> {
  const body = {
    approvalToken: approval.approvalToken,
    decision: decision.decision,
    ...(decision.modifiedArguments ? { modifiedArguments: decision.modifiedArguments } : {}),
  };
  return postForStream(
    `/api/v1/flows-actors/approvals/${encodeURIComponent(approval.approvalId)}/decision`,
    body,
    options,
  );
}

/** `GET /api/v1/flows-actors/approvals`: the caller's pending approvals across conversations. */
export async function listPendingApprovals(
  accessToken: string,
  signal?: AbortSignal,
): Promise<FlowsActors_ApprovalRequest[]> {
  const body = await requestJson('/api/v1/flows-actors/approvals', {
    accessToken,
    signal,
    schema: ApprovalListResponseSchema,
  });
  return body.data;
}

/** `GET /api/v1/organizations`: the caller's organizations. */
export async function listOrganizations(accessToken: string, signal?: AbortSignal): Promise<Organization[]> {
  const body = await requestJson('/api/v1/organizations', { accessToken, signal, schema: OrganizationListSchema });
  return body.data;
}
