import type { FlowsActors_TurnEvent } from '@wildo/shared-lib';
import { TurnEventSchema } from './assistant.contracts';

/** One dispatched server-sent event before validation: its `event:` name and joined `data:` lines. */
export interface RawSseEvent {
  event: string;
  data: string;
}

/**
 * Incremental `text/event-stream` parser: feed it decoded text in chunks of any size; it returns the events
 * completed by each chunk. Follows the SSE rules that matter here: LF, CRLF or CR line ends, `:` comments,
 * one optional space after the colon, several `data:` lines joined by LF, an event per blank line.
 */
export class SseParser {
  private buffer = '';
  private eventName = '';
  private dataLines: string[] = [];

  push(chunk: string): RawSseEvent[] {
    this.buffer += chunk;
    const events: RawSseEvent[] = [];
    // A CR at the very end may be the first half of a CRLF split across chunks: keep it for the next chunk.
    const holdBack = this.buffer.endsWith('\r') ? 1 : 0;
    const usable = this.buffer.slice(0, this.buffer.length - holdBack);
    const lines = usable.split(/\r\n|\r|\n/);
    // The last piece is an incomplete line (empty when the text ended with a line break).
    this.buffer = (lines.pop() ?? '') + this.buffer.slice(this.buffer.length - holdBack);
    for (const line of lines) {
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): RawSseEvent | null {
    if (line === '') {
      const event =
        this.dataLines.length > 0 ? { event: this.eventName || 'message', data: this.dataLines.join('\n') } : null;
      this.eventName = '';
      this.dataLines = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventName = value;
    else if (field === 'data') this.dataLines.push(value);
    // `id` and `retry` do not matter to a POST stream that is never reconnected.
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates one raw event as a turn event. The event name is the `type`; a `type` inside the data must agree
 * with it (the `error` event's data is the error envelope, which has none). Returns `null` for anything else.
 */
export function parseTurnEvent(raw: RawSseEvent): FlowsActors_TurnEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(raw.data);
  } catch {
    return null;
  }
  if (!isRecord(data)) return null;
  if (data.type !== undefined && data.type !== raw.event) return null;
  const parsed = TurnEventSchema.safeParse({ ...data, type: raw.event });
  return parsed.success ? parsed.data : null;
}
