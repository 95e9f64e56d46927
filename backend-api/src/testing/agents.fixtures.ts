import type supertest from 'supertest';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { TurnEvent } from '../engine/agents/runtime/turn-events.js';
import type { WildoBackendOptions } from '../engine/bootstrap/wildo-backend.js';
import type { SqlDatabase } from '../engine/persistence/sql-database.js';
export { ManualClock } from './manual-clock.js';
import { createOrganization, signUp, type TestUser } from './identity.fixtures.js';
import { AnthropicStub } from './llm-stubs/index.js';
import { createTestBackend, type TestBackend } from './test-backend.js';

/** One server-sent event as the browser receives it. */
export interface SseEvent {
  event: string;
  data: any;
}

/** Parses an SSE body into its events (the `event:` name and the JSON `data:`). */
export function parseSse(text: string): SseEvent[] {
  return (
    text
      .split('\n\n')
      // Comment blocks (`: keep-alive` heartbeats) carry no event.
      .filter((block) => block.split('\n').some((line) => line.startsWith('data: ')))
      .map((block) => {
        const lines = block.split('\n');
        const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
        const data = lines
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
        return { event, data: JSON.parse(data) };
      })
  );
}

/** A streamed response: the HTTP status, the JSON body of a refusal, or the events of a turn. */
export interface StreamedResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
  events: SseEvent[];
  /** The events' payloads, typed as turn events. */
  turn: TurnEvent[];
}

/** POSTs JSON and reads the answer whole, as SSE when it streams. */
/** The response's whole body as text, however it is streamed (SSE, JSON): for supertest's `.parse`. */
export function collectText(
  response: {
    setEncoding(encoding: 'utf8'): unknown;
    on(event: 'data' | 'end', listener: (chunk: string) => void): unknown;
  },
  done: (error: null, text: string) => void,
): void {
  let text = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => (text += chunk));
  response.on('end', () => done(null, text));
}

export async function postStream(
  api: supertest.Agent,
  path: string,
  auth: Record<string, string>,
  body: unknown,
): Promise<StreamedResponse> {
  const res = await api
    .post(path)
    .set(auth)
    .send(body as object)
    .buffer(true)
    .parse((response, done) => collectText(response, done));
  const text = res.body as string;
  const streamed = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
  const events = streamed ? parseSse(text) : [];
  return {
    status: res.status,
    headers: res.headers as Record<string, string>,
    body: streamed || text === '' ? undefined : JSON.parse(text),
    events,
    turn: events.filter((e) => e.event !== 'error').map((e) => e.data as TurnEvent),
  };
}

/** The events of one type from a turn. */
export function eventsOf<T extends TurnEvent['type']>(
  turn: readonly TurnEvent[],
  type: T,
): Extract<TurnEvent, { type: T }>[] {
  return turn.filter((e): e is Extract<TurnEvent, { type: T }> => e.type === type);
}

/** Backend options that point the Anthropic provider at a local stub (no retries: a scripted error is final). */
export function anthropicStubOptions(stub: { baseURL: string }) {
  return { env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: stub.baseURL }, providers: { maxRetries: 0 } };
}

/** A person with an organization of their own, and the todo assistant's turns URL there. */
export async function assistantOrganization(
  api: supertest.Agent,
  label: string,
): Promise<{ owner: TestUser; orgId: string; turns: string }> {
  const owner = await signUp(api, label);
  const orgId = await createOrganization(api, owner);
  return { owner, orgId, turns: `/api/v1/organizations/${orgId}/flows-actors/systems/todo-assistant/turns` };
}

/** The todo assistant of one describe block: its backend, the model stub it calls, and its owner's organization. */
export interface AssistantBackend {
  stub: AnthropicStub;
  t: TestBackend;
  owner: TestUser;
  orgId: string;
  turns: string;
}

/**
 * Serves the reference application for the current describe block against a local Anthropic stub, with a person
 * owning an organization (`label`); after each test every scripted reply must have been used, and the stub is reset.
 * Fields are set in `beforeAll`.
 */
export function useAssistantBackend(
  database: () => SqlDatabase,
  label: string,
  options: Partial<WildoBackendOptions> = {},
): AssistantBackend {
  const assistant = { stub: new AnthropicStub() } as AssistantBackend;
  beforeAll(async () => {
    await assistant.stub.start();
    assistant.t = await createTestBackend(database(), { ...options, ...anthropicStubOptions(assistant.stub) });
    Object.assign(assistant, await assistantOrganization(assistant.t.api, label));
  });
  afterEach(() => {
    expect(assistant.stub.pending, 'every scripted model reply was used').toBe(0);
    assistant.stub.reset();
  });
  afterAll(async () => {
    await assistant.t?.close();
    await assistant.stub.close();
  });
  return assistant;
}
