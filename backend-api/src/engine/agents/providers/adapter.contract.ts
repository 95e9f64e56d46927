import { describe, expect, it } from 'vitest';
import {
  deferred,
  errorReply,
  structuredReply,
  textReply,
  toolCallsReply,
  type ScriptedStubServer,
  type StubMessageReply,
} from '../../../testing/llm-stubs/index.js';
import {
  abortInFlight,
  chatRequest,
  collect,
  expectAbortError,
  expectProviderError,
  rejection,
  structuredRequest,
  type StubbedAdapter,
  type StubbedAdapterSetup,
} from './adapter.fixtures.js';
import type {
  ChatStreamRequest,
  LLMProviderAdapter,
  ProviderCallErrorKind,
  ProviderFinishReason,
} from './llm-provider.types.js';

/** An adapter offering streaming chat and structured output. */
export type ChatAdapter = LLMProviderAdapter & Required<Pick<LLMProviderAdapter, 'streamChat' | 'generateStructured'>>;

/** What the contract needs to know of a vendor: its setup against its stub, and how its API words things. */
export interface ChatAdapterVendor<S extends ScriptedStubServer, A extends ChatAdapter> extends StubbedAdapterSetup<
  S,
  A
> {
  /** The vendor's model id sent in requests. */
  readonly model: string;
  /** How the vendor's tool-call ids begin (the stub streams back the ids it is given). */
  readonly toolCallIdPrefix: string;
  /** The vendor's name for why an answer ended, in test titles ("stop reason", "finish reason"). */
  readonly stopReasonName: string;
  /** Stop reasons of a text answer, each with the finish reason the adapter maps it to. */
  readonly stopReasons: readonly (readonly [vendorReason: string, finishReason: ProviderFinishReason])[];
  /** The stop reason of an answer that calls tools. */
  readonly toolCallsStopReason: string;
  /** The stop reason of an answer cut at the token limit. */
  readonly lengthStopReason: string;
  /** Where a stream's usage comes from, in a test title. */
  readonly streamUsageSource: string;
  /** A reply in which the model refuses to answer. */
  readonly refusalReply: StubMessageReply;
}

/**
 * The behaviour every chat adapter shares, whatever its vendor's wire format: streaming, tool-call assembly,
 * usage and finish reasons, the classification of failures, aborts and structured output. Call inside the
 * vendor's `describe`, with the stub and adapter `useStubbedAdapter` gives it.
 */
export function describeChatAdapterContract<S extends ScriptedStubServer, A extends ChatAdapter>(
  vendor: ChatAdapterVendor<S, A>,
  harness: StubbedAdapter<S, A>,
): void {
  const chat = (request: Partial<ChatStreamRequest> = {}) => chatRequest(vendor.model, request);
  const structured = structuredRequest(vendor.model);
  const streamed = (request: Partial<ChatStreamRequest> = {}) => collect(harness.adapter.streamChat(chat(request)));
  const toolCallId = (suffix: string) => `${vendor.toolCallIdPrefix}${suffix}`;

  describe('streamChat', () => {
    it('streams text deltas in order, which concatenate to the answer', async () => {
      harness.stub.enqueue(textReply('Bonjour, le monde', { textDeltas: ['Bon', 'jour, ', 'le ', 'monde'] }));

      const events = await streamed();

      const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
      expect(deltas).toEqual(['Bon', 'jour, ', 'le ', 'monde']);
      expect(deltas.join('')).toBe('Bonjour, le monde');
    });

    it('ends with exactly one finish event', async () => {
      harness.stub.enqueue(textReply('Hi there'));

      const events = await streamed();

      expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
      expect(events.at(-1)?.type).toBe('finish');
    });

    it('assembles tool calls from argument fragments', async () => {
      harness.stub.enqueue(
        toolCallsReply(
          [
            { id: toolCallId('a'), name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } },
            { id: toolCallId('b'), name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
          ],
          { argumentChunkSize: 3 },
        ),
      );

      const events = await streamed();

      expect(events.filter((event) => event.type === 'tool_call')).toEqual([
        {
          type: 'tool_call',
          call: { id: toolCallId('a'), name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } },
        },
        { type: 'tool_call', call: { id: toolCallId('b'), name: 'get_time', arguments: { timezone: 'Europe/Paris' } } },
      ]);
    });

    it('streams the text that precedes tool calls before the calls', async () => {
      harness.stub.enqueue(
        toolCallsReply([{ id: toolCallId('a'), name: 'lookup', arguments: { q: 'x' } }], {
          text: 'Let me check.',
          textDeltas: ['Let me ', 'check.'],
        }),
      );

      const events = await streamed();

      expect(events.map((event) => event.type)).toEqual(['text_delta', 'text_delta', 'tool_call', 'finish']);
    });

    it('gives a tool call with empty arguments an empty object', async () => {
      harness.stub.enqueue(toolCallsReply([{ id: toolCallId('a'), name: 'list_todos', arguments: '' }]));

      const events = await streamed();

      expect(events.find((event) => event.type === 'tool_call')).toEqual({
        type: 'tool_call',
        call: { id: toolCallId('a'), name: 'list_todos', arguments: {} },
      });
    });

    it.each([
      ['not JSON', '{"q": '],
      ['not a JSON object', '["not", "an", "object"]'],
    ])('rejects tool arguments that are %s as invalid_response', async (_what, text) => {
      harness.stub.enqueue(toolCallsReply([{ id: toolCallId('a'), name: 'lookup', arguments: text }]));

      const error = await rejection(streamed());

      expectProviderError(error, { kind: 'invalid_response', providerRef: vendor.ref });
    });

    it(`reports usage from ${vendor.streamUsageSource}`, async () => {
      harness.stub.enqueue(textReply('Hi', { usage: { inputTokens: 42, outputTokens: 7 } }));

      const events = await streamed();

      expect(events.at(-1)).toMatchObject({
        type: 'finish',
        usage: { inputTokens: 42, outputTokens: 7, totalTokens: 49 },
      });
    });

    it.each(vendor.stopReasons)(
      `maps ${vendor.stopReasonName} %s to finish reason %s`,
      async (stopReason, finishReason) => {
        harness.stub.enqueue(textReply('Some text', { stopReason }));

        const events = await streamed();

        expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason });
      },
    );

    it(`maps ${vendor.stopReasonName} ${vendor.toolCallsStopReason} to finish reason tool_calls`, async () => {
      harness.stub.enqueue(toolCallsReply([{ name: 'lookup', arguments: { q: 'x' } }]));

      const events = await streamed();

      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    });

    it(`rejects a stream that ends without a ${vendor.stopReasonName} as invalid_response`, async () => {
      harness.stub.enqueue(textReply('Cut short here', { truncate: true }));

      const error = await rejection(streamed());

      expectProviderError(error, { kind: 'invalid_response' });
    });

    it('yields the deltas received before a stream is cut short', async () => {
      harness.stub.enqueue(textReply('Cut short', { textDeltas: ['Cut ', 'short'], truncate: true }));
      const seen: string[] = [];

      await rejection(
        (async () => {
          for await (const event of harness.adapter.streamChat(chat()))
            if (event.type === 'text_delta') seen.push(event.text);
        })(),
      );

      expect(seen).toEqual(['Cut ', 'short']);
    });

    it('maps a connection dropped mid-stream to unavailable', async () => {
      const gate = deferred();
      harness.stub.enqueue(textReply('First then the rest', { holdAfterFirstDelta: gate.promise }));
      const stream = harness.adapter.streamChat(chat())[Symbol.asyncIterator]();
      await stream.next();

      await harness.stub.close();
      const error = await rejection(stream.next());
      gate.resolve();

      expectProviderError(error, { kind: 'unavailable' });
    });
  });

  describe('errors', () => {
    it.each<[number, ProviderCallErrorKind]>([
      [401, 'not_configured'],
      [500, 'unavailable'],
      [400, 'refused'],
    ])('maps %i to %s', async (status, kind) => {
      harness.stub.enqueue(errorReply(status, `the stub answers ${status}`));

      const error = await rejection(streamed());

      expectProviderError(error, { kind, status, providerRef: vendor.ref });
    });

    it('maps 429 to rate_limited with the retry-after delay in milliseconds', async () => {
      harness.stub.enqueue(errorReply(429, 'slow down', { headers: { 'retry-after': '7' } }));

      const error = await rejection(streamed());

      expectProviderError(error, { kind: 'rate_limited', status: 429, retryAfterMs: 7000 });
    });

    it('prefers retry-after-ms to retry-after', async () => {
      harness.stub.enqueue(errorReply(429, 'slow down', { headers: { 'retry-after-ms': '1500', 'retry-after': '2' } }));

      const error = await rejection(streamed());

      expectProviderError(error, { kind: 'rate_limited', retryAfterMs: 1500 });
    });

    it('maps an unreachable server to unavailable', async () => {
      await harness.stub.close();

      const error = await rejection(streamed());

      expectProviderError(error, { kind: 'unavailable' });
    });

    it('retries a 500 itself when maxRetries allows, against the same server', async () => {
      const retrying = vendor.createAdapter(harness.stub, { maxRetries: 1 });
      harness.stub.enqueue(
        errorReply(500, 'transient', { headers: { 'retry-after-ms': '1' } }),
        textReply('Recovered'),
      );

      const events = await collect(retrying.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
      expect(harness.stub.requests).toHaveLength(2);
    });
  });

  describe('abort', () => {
    it('rejects with the AbortError when the signal is already aborted, without a request', async () => {
      const controller = new AbortController();
      controller.abort();

      const error = await rejection(streamed({ signal: controller.signal }));

      expectAbortError(error);
      expect(harness.stub.requests).toHaveLength(0);
    });

    it('rejects with the AbortError when aborted while waiting for the response', async () => {
      const error = await abortInFlight(
        harness.stub,
        (waitFor) => textReply('Too late', { waitFor }),
        (signal) => streamed({ signal }),
      );

      expectAbortError(error);
    });

    it('rejects with the AbortError when aborted mid-stream', async () => {
      const gate = deferred();
      harness.stub.enqueue(textReply('First then the rest', { holdAfterFirstDelta: gate.promise }));
      const controller = new AbortController();
      const stream = harness.adapter.streamChat(chat({ signal: controller.signal }))[Symbol.asyncIterator]();

      expect(await stream.next()).toEqual({ done: false, value: { type: 'text_delta', text: 'First ' } });
      controller.abort();
      const error = await rejection(stream.next());
      gate.resolve();

      expectAbortError(error);
    });

    it('rejects with the signal reason given to abort()', async () => {
      const controller = new AbortController();
      const reason = new DOMException('the user cancelled', 'AbortError');
      controller.abort(reason);

      const error = await rejection(streamed({ signal: controller.signal }));

      expect(error).toBe(reason);
    });

    it('rejects generateStructured with the AbortError when aborted in flight', async () => {
      const error = await abortInFlight(
        harness.stub,
        (waitFor) => structuredReply({ name: 'red' }, { waitFor }),
        (signal) => harness.adapter.generateStructured({ ...structured, signal }),
      );

      expectAbortError(error);
    });
  });

  describe('generateStructured', () => {
    it('returns the JSON object of the answer', async () => {
      harness.stub.enqueue(structuredReply({ name: 'red' }));

      const result = await harness.adapter.generateStructured(structured);

      expect(result.object).toEqual({ name: 'red' });
      expect(result.finishReason).toBe('stop');
    });

    it('reports the usage of the answer', async () => {
      harness.stub.enqueue(structuredReply({ name: 'red' }, { usage: { inputTokens: 30, outputTokens: 4 } }));

      const result = await harness.adapter.generateStructured(structured);

      expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 4, totalTokens: 34 });
    });

    it('rejects text that is not JSON as invalid_response', async () => {
      harness.stub.enqueue(textReply('Red, I think.'));

      const error = await rejection(harness.adapter.generateStructured(structured));

      expectProviderError(error, { kind: 'invalid_response' });
    });

    it(`rejects an answer cut at the token limit (${vendor.lengthStopReason}) as invalid_response`, async () => {
      harness.stub.enqueue(textReply('{"name": "re', { stopReason: vendor.lengthStopReason }));

      const error = await rejection(harness.adapter.generateStructured(structured));

      expectProviderError(error, { kind: 'invalid_response' });
    });

    it('rejects a refusal as refused', async () => {
      harness.stub.enqueue(vendor.refusalReply);

      const error = await rejection(harness.adapter.generateStructured(structured));

      expectProviderError(error, { kind: 'refused', providerRef: vendor.ref });
    });

    it('maps an HTTP error like streamChat does (429 -> rate_limited)', async () => {
      harness.stub.enqueue(errorReply(429, 'slow down', { headers: { 'retry-after': '2' } }));

      const error = await rejection(harness.adapter.generateStructured(structured));

      expectProviderError(error, { kind: 'rate_limited', retryAfterMs: 2000 });
    });
  });
}
