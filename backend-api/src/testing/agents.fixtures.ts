import type supertest from 'supertest';
import type { Clock } from '../engine/container/clock.js';
import type { TurnEvent } from '../engine/agents/conversations/turn-events.js';

/** One server-sent event as the browser receives it. */
export interface SseEvent {
  event: string;
  data: any;
}

/** Parses an SSE body into its events (the `event:` name and the JSON `data:`). */
export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      return { event, data: JSON.parse(data) };
    });
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
export async function postStream(api: supertest.Agent, path: string, auth: Record<string, string>, body: unknown): Promise<StreamedResponse> {
  const res = await api
    .post(path)
    .set(auth)
    .send(body as object)
    .buffer(true)
    .parse((response, done) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done(null, text));
    });
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

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current: Date = new Date()) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(iso: string): void {
    this.current = new Date(iso);
  }
}

/** The events of one type from a turn. */
export function eventsOf<T extends TurnEvent['type']>(turn: readonly TurnEvent[], type: T): Extract<TurnEvent, { type: T }>[] {
  return turn.filter((e): e is Extract<TurnEvent, { type: T }> => e.type === type);
}
