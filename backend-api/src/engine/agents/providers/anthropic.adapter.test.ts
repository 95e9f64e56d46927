import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicStub, deferred, errorReply, structuredReply, textReply, toolCallsReply } from '../../../testing/llm-stubs/index.js';
import { AnthropicAdapter } from './anthropic.adapter.js';
import { ProviderCallError, type ChatStreamEvent, type ChatStreamRequest, type StructuredRequest } from './llm-provider.types.js';

const MODEL = 'claude-sonnet-5';

async function collect(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** What `promise` rejected with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

function chat(request: Partial<ChatStreamRequest> = {}): ChatStreamRequest {
  return { model: MODEL, messages: [{ role: 'user', content: 'Hello' }], ...request };
}

const STRUCTURED: StructuredRequest = {
  model: MODEL,
  prompt: 'Name a colour.',
  schemaName: 'colour',
  jsonSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { name: { type: 'string' } },
    required: ['name'],
    additionalProperties: false,
  },
};

describe('AnthropicAdapter against the Messages API stub', () => {
  let stub: AnthropicStub;
  let adapter: AnthropicAdapter;

  beforeEach(async () => {
    stub = await new AnthropicStub().start();
    adapter = new AnthropicAdapter({ apiKey: 'sk-ant-test', baseURL: stub.baseURL, maxRetries: 0 });
  });

  afterEach(async () => {
    await stub.close();
  });

  describe('streamChat', () => {
    it('streams text deltas in order, which concatenate to the answer', async () => {
      stub.enqueue(textReply('Bonjour, le monde', { textDeltas: ['Bon', 'jour, ', 'le ', 'monde'] }));

      const events = await collect(adapter.streamChat(chat()));

      const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
      expect(deltas).toEqual(['Bon', 'jour, ', 'le ', 'monde']);
      expect(deltas.join('')).toBe('Bonjour, le monde');
    });

    it('ends with exactly one finish event', async () => {
      stub.enqueue(textReply('Hi there'));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
      expect(events.at(-1)?.type).toBe('finish');
    });

    it('sends the model, the messages and the default max_tokens to /v1/messages with the API key as bearer token', async () => {
      stub.enqueue(textReply('Hi'));

      await collect(adapter.streamChat(chat()));

      expect(stub.requests).toHaveLength(1);
      const [request] = stub.requests;
      expect(request?.path).toBe('/v1/messages');
      // SDK 1.15.0 sends an API key passed in code as `authorization: Bearer`.
      expect(request?.headers.authorization).toBe('Bearer sk-ant-test');
      expect(request?.body).toMatchObject({
        model: MODEL,
        stream: true,
        max_tokens: 4096,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      });
    });

    it('sends the system prompt as the top-level system parameter', async () => {
      stub.enqueue(textReply('Arr'));

      await collect(adapter.streamChat(chat({ system: 'You are a pirate.' })));

      expect(stub.requests[0]?.body.system).toBe('You are a pirate.');
      expect(JSON.stringify(stub.requests[0]?.body.messages)).not.toContain('pirate');
    });

    it('omits system when no system prompt is set', async () => {
      stub.enqueue(textReply('Hi'));

      await collect(adapter.streamChat(chat()));

      expect(stub.requests[0]?.body).not.toHaveProperty('system');
    });

    it('sends maxOutputTokens as max_tokens and reasoningEffort as output_config.effort', async () => {
      stub.enqueue(textReply('Hi'));

      await collect(adapter.streamChat(chat({ maxOutputTokens: 256, reasoningEffort: 'low' })));

      expect(stub.requests[0]?.body).toMatchObject({ max_tokens: 256, output_config: { effort: 'low' } });
    });

    it('refuses a temperature (the Messages API has none) without calling the vendor', async () => {
      const error = await rejection(collect(adapter.streamChat(chat({ temperature: 0.2 }))));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'refused', providerRef: 'anthropic' });
      expect(stub.requests).toHaveLength(0);
    });

    it('sends tools with their input schemas, without the $schema keyword', async () => {
      stub.enqueue(textReply('No tool needed'));

      await collect(
        adapter.streamChat(
          chat({
            tools: [
              {
                name: 'get_weather',
                description: 'The weather in a city',
                inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { city: { type: 'string' } } },
              },
            ],
          }),
        ),
      );

      expect(stub.requests[0]?.body.tools).toEqual([
        { name: 'get_weather', description: 'The weather in a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
      ]);
    });

    it('assembles tool calls from input_json_delta fragments', async () => {
      stub.enqueue(
        toolCallsReply(
          [
            { id: 'toolu_a', name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } },
            { id: 'toolu_b', name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
          ],
          { argumentChunkSize: 3 },
        ),
      );

      const events = await collect(adapter.streamChat(chat()));

      expect(events.filter((event) => event.type === 'tool_call')).toEqual([
        { type: 'tool_call', call: { id: 'toolu_a', name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } } },
        { type: 'tool_call', call: { id: 'toolu_b', name: 'get_time', arguments: { timezone: 'Europe/Paris' } } },
      ]);
    });

    it('streams the text that precedes tool calls before the calls', async () => {
      stub.enqueue(toolCallsReply([{ id: 'toolu_a', name: 'lookup', arguments: { q: 'x' } }], { text: 'Let me check.', textDeltas: ['Let me ', 'check.'] }));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.map((event) => event.type)).toEqual(['text_delta', 'text_delta', 'tool_call', 'finish']);
    });

    it('gives a tool call with empty arguments an empty object', async () => {
      stub.enqueue(toolCallsReply([{ id: 'toolu_a', name: 'list_todos', arguments: '' }]));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.find((event) => event.type === 'tool_call')).toEqual({ type: 'tool_call', call: { id: 'toolu_a', name: 'list_todos', arguments: {} } });
    });

    it('rejects tool arguments that are not JSON as invalid_response', async () => {
      stub.enqueue(toolCallsReply([{ id: 'toolu_a', name: 'lookup', arguments: '{"q": ' }]));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'invalid_response' });
    });

    it('translates assistant tool calls and tool results into tool_use and tool_result blocks', async () => {
      stub.enqueue(textReply('It is 18°C and sunny in Paris; the Louvre closes at 6pm.'));

      await collect(
        adapter.streamChat(
          chat({
            messages: [
              { role: 'user', content: 'Weather in Paris, and when does the Louvre close?' },
              {
                role: 'assistant',
                content: 'Checking.',
                toolCalls: [
                  { id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } },
                  { id: 'toolu_2', name: 'opening_hours', arguments: { place: 'Louvre' } },
                ],
              },
              { role: 'tool', toolCallId: 'toolu_1', name: 'get_weather', content: '18°C, sunny' },
              { role: 'tool', toolCallId: 'toolu_2', name: 'opening_hours', content: 'lookup failed', isError: true },
              { role: 'user', content: 'Summarise.' },
            ],
          }),
        ),
      );

      expect(stub.requests[0]?.body.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris, and when does the Louvre close?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'opening_hours', input: { place: 'Louvre' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C, sunny' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'lookup failed', is_error: true },
            { type: 'text', text: 'Summarise.' },
          ],
        },
      ]);
    });

    it('sends an assistant turn with only tool calls without an empty text block', async () => {
      stub.enqueue(textReply('Done'));

      await collect(
        adapter.streamChat(
          chat({
            messages: [
              { role: 'user', content: 'List my todos' },
              { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_1', name: 'list_todos', arguments: {} }] },
              { role: 'tool', toolCallId: 'toolu_1', name: 'list_todos', content: '[]' },
            ],
          }),
        ),
      );

      expect(stub.requests[0]?.body.messages[1]).toEqual({
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_todos', input: {} }],
      });
    });

    it('reports usage from message_start input tokens and message_delta output tokens', async () => {
      stub.enqueue(textReply('Hi', { usage: { inputTokens: 42, outputTokens: 7 } }));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 42, outputTokens: 7, totalTokens: 49 } });
    });

    it('counts cache writes and reads as input tokens', async () => {
      const sse = [
        ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000 } } }],
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }],
        ['message_stop', { type: 'message_stop' }],
      ] as const;
      stub.enqueue({
        type: 'raw',
        contentType: 'text/event-stream',
        body: sse.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(''),
      });

      const events = await collect(adapter.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 1110, outputTokens: 3, totalTokens: 1113 } });
    });

    it.each([
      ['end_turn', 'stop'],
      ['stop_sequence', 'stop'],
      ['max_tokens', 'length'],
      ['refusal', 'content_filter'],
      ['pause_turn', 'other'],
    ])('maps stop reason %s to finish reason %s', async (stopReason, finishReason) => {
      stub.enqueue(textReply('Some text', { stopReason }));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason });
    });

    it('maps stop reason tool_use to finish reason tool_calls', async () => {
      stub.enqueue(toolCallsReply([{ name: 'lookup', arguments: { q: 'x' } }]));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    });

    it('rejects a stream that ends before message_stop as invalid_response', async () => {
      stub.enqueue(textReply('Cut short here', { truncate: true }));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'invalid_response' });
    });

    it('yields the deltas received before a stream is cut short', async () => {
      stub.enqueue(textReply('Cut short', { textDeltas: ['Cut ', 'short'], truncate: true }));
      const seen: string[] = [];

      await rejection(
        (async () => {
          for await (const event of adapter.streamChat(chat())) if (event.type === 'text_delta') seen.push(event.text);
        })(),
      );

      expect(seen).toEqual(['Cut ', 'short']);
    });

    it('maps a connection dropped mid-stream to unavailable', async () => {
      const gate = deferred();
      stub.enqueue(textReply('First then the rest', { holdAfterFirstDelta: gate.promise }));
      const stream = adapter.streamChat(chat())[Symbol.asyncIterator]();
      await stream.next();

      await stub.close();
      const error = await rejection(stream.next());
      gate.resolve();

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'unavailable' });
    });

    it('maps an error event inside the stream to unavailable', async () => {
      stub.enqueue({
        type: 'raw',
        contentType: 'text/event-stream',
        body: `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
      });

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'unavailable' });
    });
  });

  describe('errors', () => {
    it('maps 401 to not_configured', async () => {
      stub.enqueue(errorReply(401, 'invalid x-api-key'));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'not_configured', status: 401, providerRef: 'anthropic' });
    });

    it('maps 429 to rate_limited with the retry-after delay in milliseconds', async () => {
      stub.enqueue(errorReply(429, 'slow down', { headers: { 'retry-after': '7' } }));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 7000 });
    });

    it('maps 500 to unavailable', async () => {
      stub.enqueue(errorReply(500, 'internal error'));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'unavailable', status: 500 });
    });

    it('maps 529 (overloaded) to unavailable', async () => {
      stub.enqueue(errorReply(529, 'Overloaded'));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toMatchObject({ kind: 'unavailable', status: 529 });
    });

    it('maps 400 to refused', async () => {
      stub.enqueue(errorReply(400, 'messages: text content blocks must be non-empty'));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'refused', status: 400 });
    });

    it('maps an unreachable server to unavailable', async () => {
      await stub.close();

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'unavailable' });
    });

    it('retries a 500 itself when maxRetries allows, against the same server', async () => {
      const retrying = new AnthropicAdapter({ apiKey: 'sk-ant-test', baseURL: stub.baseURL, maxRetries: 1 });
      stub.enqueue(errorReply(500, 'transient', { headers: { 'retry-after-ms': '1' } }), textReply('Recovered'));

      const events = await collect(retrying.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
      expect(stub.requests).toHaveLength(2);
    });
  });

  describe('abort', () => {
    it('rejects with the AbortError when the signal is already aborted, without a request', async () => {
      const controller = new AbortController();
      controller.abort();

      const error = await rejection(collect(adapter.streamChat(chat({ signal: controller.signal }))));

      expect(error).not.toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ name: 'AbortError' });
    });

    it('rejects with the AbortError when aborted while waiting for the response', async () => {
      const gate = deferred();
      stub.enqueue(textReply('Too late', { waitFor: gate.promise }));
      const controller = new AbortController();
      const pending = rejection(collect(adapter.streamChat(chat({ signal: controller.signal }))));
      await stub.waitForRequests(1);

      controller.abort();
      const error = await pending;
      gate.resolve();

      expect(error).not.toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ name: 'AbortError' });
    });

    it('rejects with the AbortError when aborted mid-stream', async () => {
      const gate = deferred();
      stub.enqueue(textReply('First then the rest', { holdAfterFirstDelta: gate.promise }));
      const controller = new AbortController();
      const stream = adapter.streamChat(chat({ signal: controller.signal }))[Symbol.asyncIterator]();

      expect(await stream.next()).toEqual({ done: false, value: { type: 'text_delta', text: 'First ' } });
      controller.abort();
      const error = await rejection(stream.next());
      gate.resolve();

      expect(error).not.toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ name: 'AbortError' });
    });

    it('rejects with the signal reason given to abort()', async () => {
      const controller = new AbortController();
      const reason = new DOMException('the user cancelled', 'AbortError');
      controller.abort(reason);

      const error = await rejection(collect(adapter.streamChat(chat({ signal: controller.signal }))));

      expect(error).toBe(reason);
    });

    it('rejects generateStructured with the AbortError when aborted in flight', async () => {
      const gate = deferred();
      stub.enqueue(structuredReply({ name: 'red' }, { waitFor: gate.promise }));
      const controller = new AbortController();
      const pending = rejection(adapter.generateStructured({ ...STRUCTURED, signal: controller.signal }));
      await stub.waitForRequests(1);

      controller.abort();
      const error = await pending;
      gate.resolve();

      expect(error).not.toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ name: 'AbortError' });
    });
  });

  describe('generateStructured', () => {
    it('returns the JSON object of the answer', async () => {
      stub.enqueue(structuredReply({ name: 'red' }));

      const result = await adapter.generateStructured(STRUCTURED);

      expect(result.object).toEqual({ name: 'red' });
      expect(result.finishReason).toBe('stop');
    });

    it('asks for the schema through output_config.format, without the $schema keyword', async () => {
      stub.enqueue(structuredReply({ name: 'red' }));

      await adapter.generateStructured({ ...STRUCTURED, reasoningEffort: 'medium', system: 'Answer briefly.' });

      const body = stub.requests[0]?.body;
      expect(body).not.toHaveProperty('stream');
      expect(body).toMatchObject({
        model: MODEL,
        system: 'Answer briefly.',
        messages: [{ role: 'user', content: 'Name a colour.' }],
        output_config: {
          effort: 'medium',
          format: {
            type: 'json_schema',
            schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
          },
        },
      });
      expect(body.output_config.format.schema).not.toHaveProperty('$schema');
    });

    it('reports the usage of the answer', async () => {
      stub.enqueue(structuredReply({ name: 'red' }, { usage: { inputTokens: 30, outputTokens: 4 } }));

      const result = await adapter.generateStructured(STRUCTURED);

      expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 4, totalTokens: 34 });
    });

    it('rejects text that is not JSON as invalid_response', async () => {
      stub.enqueue(textReply('Red, I think.'));

      const error = await rejection(adapter.generateStructured(STRUCTURED));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'invalid_response' });
    });

    it('rejects an answer cut at max_tokens as invalid_response', async () => {
      stub.enqueue(textReply('{"name": "re', { stopReason: 'max_tokens' }));

      const error = await rejection(adapter.generateStructured(STRUCTURED));

      expect(error).toMatchObject({ kind: 'invalid_response' });
    });

    it('rejects a refusal as refused', async () => {
      stub.enqueue(textReply('', { stopReason: 'refusal' }));

      const error = await rejection(adapter.generateStructured(STRUCTURED));

      expect(error).toMatchObject({ kind: 'refused' });
    });

    it('maps an HTTP error like streamChat does (429 -> rate_limited)', async () => {
      stub.enqueue(errorReply(429, 'slow down', { headers: { 'retry-after': '2' } }));

      const error = await rejection(adapter.generateStructured(STRUCTURED));

      expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 2000 });
    });
  });
});
