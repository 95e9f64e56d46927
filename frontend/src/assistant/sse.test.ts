import type { FlowsActors_TurnEvent } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api.client';
import { readTurnStream } from './assistant.client';
import { sse, sseResponse } from './assistant.test-support';
import { SseParser, parseTurnEvent } from './sse';

describe('SseParser', () => {
  it('completes an event split across chunks, even inside a line', () => {
    const parser = new SseParser();
    expect(parser.push('event: text_')).toEqual([]);
    expect(parser.push('delta\ndata: {"te')).toEqual([]);
    expect(parser.push('xt":"Hel')).toEqual([]);
    expect(parser.push('lo"}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'text_delta', data: '{"text":"Hello"}' }]);
  });

  it('returns every event of a chunk, in order', () => {
    const parser = new SseParser();
    const events = parser.push(
      sse(['text_delta', { text: 'a' }], ['text_delta', { text: 'b' }], ['turn_completed', { status: 'completed' }]),
    );
    expect(events.map((e) => e.event)).toEqual(['text_delta', 'text_delta', 'turn_completed']);
    expect(events[1]!.data).toBe('{"text":"b"}');
  });

  it('handles CRLF split between chunks, comments, multi-line data and the default event name', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\r\nevent: x\r\ndata: 1\r')).toEqual([]);
    expect(parser.push('\ndata:2\r\n\r\ndata: plain\n\n')).toEqual([
      { event: 'x', data: '1\n2' },
      { event: 'message', data: 'plain' },
    ]);
  });
});

describe('parseTurnEvent', () => {
  it('accepts a valid event and takes its type from the event name', () => {
    expect(parseTurnEvent({ event: 'text_delta', data: '{"type":"text_delta","text":"Hi"}' })).toEqual({
      type: 'text_delta',
      text: 'Hi',
    });
    expect(
      parseTurnEvent({
        event: 'error',
        data: '{"error":{"code":"INTERNAL","message":"An internal error occurred.","requestId":"r1"}}',
      }),
    ).toEqual({
      type: 'error',
      error: { code: 'INTERNAL', message: 'An internal error occurred.', requestId: 'r1' },
    });
  });

  it.each([
    ['data that is not JSON', { event: 'text_delta', data: '{"text":' }],
    ['a missing field', { event: 'text_delta', data: '{}' }],
    ['an unknown event', { event: 'surprise', data: '{"text":"x"}' }],
    ['a type that contradicts the event name', { event: 'text_delta', data: '{"type":"execution","text":"x"}' }],
    ['an approval without its token', { event: 'approval_required', data: '{"approval":{"approvalId":"a"}}' }],
    ['an array', { event: 'text_delta', data: '[]' }],
  ])('refuses %s', (_label, raw) => {
    expect(parseTurnEvent(raw)).toBeNull();
  });
});

describe('readTurnStream', () => {
  it('reads events across chunk boundaries', async () => {
    const text = sse(
      ['text_delta', { type: 'text_delta', text: 'Hello ' }],
      ['text_delta', { type: 'text_delta', text: 'world' }],
    );
    const seen: FlowsActors_TurnEvent[] = [];
    await readTurnStream(sseResponse(text.slice(0, 17), text.slice(17, 50), text.slice(50)), (event) =>
      seen.push(event),
    );
    expect(seen).toEqual([
      { type: 'text_delta', text: 'Hello ' },
      { type: 'text_delta', text: 'world' },
    ]);
  });

  it('stops at an invalid event with a client-safe error', async () => {
    const seen: FlowsActors_TurnEvent[] = [];
    const read = readTurnStream(
      sseResponse(
        sse(['text_delta', { text: 'ok' }], ['tool_call', { toolCallId: 'c1' }], ['text_delta', { text: 'never' }]),
      ),
      (event) => seen.push(event),
    );
    await expect(read).rejects.toBeInstanceOf(ApiError);
    await expect(read).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: 'The server sent an event in an unexpected format.',
    });
    expect(seen).toEqual([{ type: 'text_delta', text: 'ok' }]);
  });
});
