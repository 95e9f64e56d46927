import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deferred,
  deterministicVector,
  errorReply,
  OpenAIStub,
  structuredReply,
  STUB_PNG_BASE64,
  textReply,
  toolCallsReply,
} from '../../../testing/llm-stubs/index.js';
import { ProviderCallError, type ChatStreamEvent, type ChatStreamRequest, type StructuredRequest } from './llm-provider.types.js';
import { OPENAI_EMBEDDINGS_MAX_BATCH, OpenAIAdapter } from './openai.adapter.js';

const MODEL = 'gpt-5';

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

const STRICT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};

const STRUCTURED: StructuredRequest = { model: MODEL, prompt: 'Name a colour.', schemaName: 'colour', jsonSchema: STRICT_SCHEMA };

describe('OpenAIAdapter against the OpenAI stub', () => {
  let stub: OpenAIStub;
  let adapter: OpenAIAdapter;

  beforeEach(async () => {
    stub = await new OpenAIStub().start();
    adapter = new OpenAIAdapter({ apiKey: 'sk-openai-test', baseURL: stub.baseURL, maxRetries: 0 });
  });

  afterEach(async () => {
    await stub.close();
  });

  describe('streamChat (Chat Completions)', () => {
    it('streams text deltas in order, which concatenate to the answer', async () => {
      stub.enqueue(textReply('Hello, world', { textDeltas: ['Hel', 'lo, ', 'world'] }));

      const events = await collect(adapter.streamChat(chat()));

      const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
      expect(deltas).toEqual(['Hel', 'lo, ', 'world']);
      expect(deltas.join('')).toBe('Hello, world');
    });

    it('ends with exactly one finish event', async () => {
      stub.enqueue(textReply('Hi there'));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
      expect(events.at(-1)?.type).toBe('finish');
    });

    it('posts a streaming request with include_usage to /v1/chat/completions with the API key', async () => {
      stub.enqueue(textReply('Hi'));

      await collect(adapter.streamChat(chat()));

      const [request] = stub.requests;
      expect(request?.path).toBe('/v1/chat/completions');
      expect(request?.headers.authorization).toBe('Bearer sk-openai-test');
      expect(request?.body).toMatchObject({
        model: MODEL,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Hello' }],
      });
    });

    it('sends the system prompt as the first message', async () => {
      stub.enqueue(textReply('Arr'));

      await collect(adapter.streamChat(chat({ system: 'You are a pirate.' })));

      expect(stub.requests[0]?.body.messages).toEqual([
        { role: 'system', content: 'You are a pirate.' },
        { role: 'user', content: 'Hello' },
      ]);
    });

    it('sends maxOutputTokens, temperature and reasoningEffort as their Chat Completions parameters', async () => {
      stub.enqueue(textReply('Hi'));

      await collect(adapter.streamChat(chat({ maxOutputTokens: 300, temperature: 0.3, reasoningEffort: 'high' })));

      expect(stub.requests[0]?.body).toMatchObject({ max_completion_tokens: 300, temperature: 0.3, reasoning_effort: 'high' });
    });

    it('sends tools as functions, without the $schema keyword', async () => {
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
        {
          type: 'function',
          function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        },
      ]);
    });

    it('assembles tool calls from tool_calls argument deltas', async () => {
      stub.enqueue(
        toolCallsReply(
          [
            { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } },
            { id: 'call_b', name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
          ],
          { argumentChunkSize: 4 },
        ),
      );

      const events = await collect(adapter.streamChat(chat()));

      expect(events.filter((event) => event.type === 'tool_call')).toEqual([
        { type: 'tool_call', call: { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } } },
        { type: 'tool_call', call: { id: 'call_b', name: 'get_time', arguments: { timezone: 'Europe/Paris' } } },
      ]);
    });

    it('gives a tool call with empty arguments an empty object', async () => {
      stub.enqueue(toolCallsReply([{ id: 'call_a', name: 'list_todos', arguments: '' }]));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.find((event) => event.type === 'tool_call')).toEqual({ type: 'tool_call', call: { id: 'call_a', name: 'list_todos', arguments: {} } });
    });

    it('rejects tool arguments that are not a JSON object as invalid_response', async () => {
      stub.enqueue(toolCallsReply([{ id: 'call_a', name: 'lookup', arguments: '["not", "an", "object"]' }]));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'invalid_response' });
    });

    it('streams a refusal as text', async () => {
      stub.enqueue({ type: 'message', refusal: 'I cannot help with that.' });

      const events = await collect(adapter.streamChat(chat()));

      expect(events.filter((event) => event.type === 'text_delta')).toEqual([{ type: 'text_delta', text: 'I cannot help with that.' }]);
    });

    it('translates assistant tool calls and tool results into tool_calls and tool messages', async () => {
      stub.enqueue(textReply('It is 18°C in Paris.'));

      await collect(
        adapter.streamChat(
          chat({
            system: 'Be brief.',
            messages: [
              { role: 'user', content: 'Weather in Paris, and when does the Louvre close?' },
              {
                role: 'assistant',
                content: '',
                toolCalls: [
                  { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
                  { id: 'call_2', name: 'opening_hours', arguments: { place: 'Louvre' } },
                ],
              },
              { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '18°C, sunny' },
              { role: 'tool', toolCallId: 'call_2', name: 'opening_hours', content: 'lookup failed', isError: true },
              { role: 'assistant', content: 'Sunny; opening hours unknown.' },
              { role: 'user', content: 'Thanks' },
            ],
          }),
        ),
      );

      expect(stub.requests[0]?.body.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris, and when does the Louvre close?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'opening_hours', arguments: '{"place":"Louvre"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C, sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: '[tool error] lookup failed' },
        { role: 'assistant', content: 'Sunny; opening hours unknown.' },
        { role: 'user', content: 'Thanks' },
      ]);
    });

    it('reports usage from the final usage chunk (stream_options.include_usage)', async () => {
      stub.enqueue(textReply('Hi', { usage: { inputTokens: 21, outputTokens: 4 } }));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 21, outputTokens: 4, totalTokens: 25 } });
    });

    it.each([
      ['stop', 'stop'],
      ['length', 'length'],
      ['content_filter', 'content_filter'],
    ])('maps finish reason %s to %s', async (stopReason, finishReason) => {
      stub.enqueue(textReply('Some text', { stopReason }));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason });
    });

    it('maps finish reason tool_calls to tool_calls', async () => {
      stub.enqueue(toolCallsReply([{ name: 'lookup', arguments: { q: 'x' } }]));

      const events = await collect(adapter.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    });

    it('rejects a stream that ends without a finish reason as invalid_response', async () => {
      stub.enqueue(textReply('Cut short here', { truncate: true }));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'invalid_response' });
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
  });

  describe('errors', () => {
    it('maps 401 to not_configured', async () => {
      stub.enqueue(errorReply(401, 'Incorrect API key provided'));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'not_configured', status: 401, providerRef: 'openai' });
    });

    it('maps 429 to rate_limited with the retry-after delay in milliseconds', async () => {
      stub.enqueue(errorReply(429, 'Rate limit reached', { headers: { 'retry-after': '3' } }));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 3000 });
    });

    it('prefers retry-after-ms to retry-after', async () => {
      stub.enqueue(errorReply(429, 'Rate limit reached', { headers: { 'retry-after-ms': '1500', 'retry-after': '2' } }));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 1500 });
    });

    it('maps 500 to unavailable', async () => {
      stub.enqueue(errorReply(500, 'The server had an error'));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'unavailable', status: 500 });
    });

    it('maps 400 to refused', async () => {
      stub.enqueue(errorReply(400, "Invalid value for 'messages'"));

      const error = await rejection(collect(adapter.streamChat(chat())));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'refused', status: 400 });
    });

    it('maps an error of the Embeddings API the same way (500 -> unavailable)', async () => {
      stub.enqueue(errorReply(500, 'The server had an error'));

      const error = await rejection(adapter.embed({ model: 'text-embedding-3-small', texts: ['a'], purpose: 'CORPUS' }));

      expect(error).toMatchObject({ kind: 'unavailable', status: 500 });
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

    it('rejects an embeddings call with the AbortError when aborted in flight', async () => {
      const gate = deferred();
      stub.enqueue({ type: 'embeddings', waitFor: gate.promise });
      const controller = new AbortController();
      const pending = rejection(adapter.embed({ model: 'text-embedding-3-small', texts: ['a'], purpose: 'QUERY', signal: controller.signal }));
      await stub.waitForRequests(1);

      controller.abort();
      const error = await pending;
      gate.resolve();

      expect(error).not.toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ name: 'AbortError' });
    });
  });

  describe('generateStructured (response_format json_schema)', () => {
    it('returns the JSON object of the answer', async () => {
      stub.enqueue(structuredReply({ name: 'red' }));

      const result = await adapter.generateStructured(STRUCTURED);

      expect(result.object).toEqual({ name: 'red' });
      expect(result.finishReason).toBe('stop');
    });

    it('sends a strict json_schema response_format for a strict-compatible schema, without $schema', async () => {
      stub.enqueue(structuredReply({ name: 'red' }));

      await adapter.generateStructured({ ...STRUCTURED, system: 'Answer briefly.' });

      const body = stub.requests[0]?.body;
      expect(body).not.toHaveProperty('stream');
      expect(body.messages).toEqual([
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Name a colour.' },
      ]);
      expect(body.response_format).toEqual({
        type: 'json_schema',
        json_schema: {
          name: 'colour',
          strict: true,
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
        },
      });
    });

    it('sends strict false for a schema with an optional property', async () => {
      stub.enqueue(structuredReply({ name: 'red' }));

      await adapter.generateStructured({
        ...STRUCTURED,
        jsonSchema: { type: 'object', properties: { name: { type: 'string' }, hex: { type: 'string' } }, required: ['name'], additionalProperties: false },
      });

      expect(stub.requests[0]?.body.response_format.json_schema.strict).toBe(false);
    });

    it('sends a schema name the API accepts', async () => {
      stub.enqueue(structuredReply({ name: 'red' }));

      await adapter.generateStructured({ ...STRUCTURED, schemaName: 'todo.summary v2' });

      expect(stub.requests[0]?.body.response_format.json_schema.name).toBe('todo_summary_v2');
    });

    it('reports the usage of the answer', async () => {
      stub.enqueue(structuredReply({ name: 'red' }, { usage: { inputTokens: 30, outputTokens: 4 } }));

      const result = await adapter.generateStructured(STRUCTURED);

      expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 4, totalTokens: 34 });
    });

    it('rejects a refusal as refused', async () => {
      stub.enqueue({ type: 'message', refusal: 'I cannot help with that.' });

      const error = await rejection(adapter.generateStructured(STRUCTURED));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'refused' });
    });

    it('rejects an answer cut at the token limit as invalid_response', async () => {
      stub.enqueue(textReply('{"name": "re', { stopReason: 'length' }));

      const error = await rejection(adapter.generateStructured(STRUCTURED));

      expect(error).toMatchObject({ kind: 'invalid_response' });
    });

    it('rejects text that is not JSON as invalid_response', async () => {
      stub.enqueue(textReply('Red, I think.'));

      const error = await rejection(adapter.generateStructured(STRUCTURED));

      expect(error).toMatchObject({ kind: 'invalid_response' });
    });
  });

  describe('generateImage (Images API)', () => {
    it('returns the b64_json images with their media type', async () => {
      stub.enqueue({ type: 'images' });

      const result = await adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square' });

      expect(result.images).toEqual([{ base64: STUB_PNG_BASE64, mediaType: 'image/png' }]);
    });

    it('returns as many images as asked for with n', async () => {
      stub.enqueue({ type: 'images' });

      const result = await adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square', n: 3 });

      expect(result.images).toHaveLength(3);
    });

    it('sends the model, prompt, size, quality, background and output format', async () => {
      stub.enqueue({ type: 'images' });

      await adapter.generateImage({
        model: 'gpt-image-1.5',
        prompt: 'A red square',
        size: '1024x1536',
        quality: 'high',
        background: 'transparent',
        outputFormat: 'webp',
        n: 2,
      });

      expect(stub.requests[0]?.path).toBe('/v1/images/generations');
      expect(stub.requests[0]?.body).toEqual({
        model: 'gpt-image-1.5',
        prompt: 'A red square',
        size: '1024x1536',
        quality: 'high',
        background: 'transparent',
        output_format: 'webp',
        n: 2,
      });
    });

    it('takes the media type from the output format of the response', async () => {
      stub.enqueue({ type: 'images', outputFormat: 'jpeg', images: [{ base64: 'AAAA' }] });

      const result = await adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square' });

      expect(result.images).toEqual([{ base64: 'AAAA', mediaType: 'image/jpeg' }]);
    });

    it('reports the usage of the image call', async () => {
      stub.enqueue({ type: 'images', usage: { inputTokens: 9, outputTokens: 272 } });

      const result = await adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square' });

      expect(result.usage).toEqual({ inputTokens: 9, outputTokens: 272, totalTokens: 281 });
    });

    it('rejects an answer without images as invalid_response', async () => {
      stub.enqueue({ type: 'images', images: [] });

      const error = await rejection(adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square' }));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'invalid_response' });
    });
  });

  describe('embed (Embeddings API)', () => {
    it('returns one vector per text, in the order of the texts', async () => {
      stub.enqueue({ type: 'embeddings', dims: 4 });

      const result = await adapter.embed({ model: 'text-embedding-3-small', texts: ['alpha', 'beta', 'gamma'], purpose: 'CORPUS' });

      expect(result.vectors).toEqual([deterministicVector('alpha', 4), deterministicVector('beta', 4), deterministicVector('gamma', 4)]);
    });

    it('puts vectors back in text order when the API lists them out of order', async () => {
      stub.enqueue({ type: 'embeddings', dims: 4, reverseOrder: true });

      const result = await adapter.embed({ model: 'text-embedding-3-small', texts: ['alpha', 'beta', 'gamma'], purpose: 'CORPUS' });

      expect(result.vectors).toEqual([deterministicVector('alpha', 4), deterministicVector('beta', 4), deterministicVector('gamma', 4)]);
    });

    it('reports the vector length as dims', async () => {
      stub.enqueue({ type: 'embeddings', dims: 6 });

      const result = await adapter.embed({ model: 'text-embedding-3-small', texts: ['alpha'], purpose: 'QUERY' });

      expect(result.dims).toBe(6);
    });

    it('reports the model that answered and the input tokens as usage', async () => {
      stub.enqueue({ type: 'embeddings', usage: { inputTokens: 11 } });

      const result = await adapter.embed({ model: 'text-embedding-3-small', texts: ['alpha', 'beta'], purpose: 'CORPUS' });

      expect(result.model).toBe('text-embedding-3-small');
      expect(result.usage).toEqual({ inputTokens: 11, outputTokens: 0, totalTokens: 11 });
    });

    it('passes dimensions through and gets vectors of that length', async () => {
      stub.enqueue({ type: 'embeddings' });

      const result = await adapter.embed({ model: 'text-embedding-3-large', texts: ['alpha'], purpose: 'QUERY', dimensions: 12 });

      expect(stub.requests[0]?.body).toMatchObject({ model: 'text-embedding-3-large', input: ['alpha'], dimensions: 12 });
      expect(result.dims).toBe(12);
      expect(result.vectors[0]).toHaveLength(12);
    });

    it('omits dimensions when none is asked for', async () => {
      stub.enqueue({ type: 'embeddings' });

      await adapter.embed({ model: 'text-embedding-3-small', texts: ['alpha'], purpose: 'QUERY' });

      expect(stub.requests[0]?.body).not.toHaveProperty('dimensions');
    });

    it('sends more texts than one request takes in consecutive batches, keeping the order', async () => {
      const texts = Array.from({ length: OPENAI_EMBEDDINGS_MAX_BATCH + 3 }, (_, index) => `text ${index}`);
      stub.enqueue({ type: 'embeddings', dims: 2 }, { type: 'embeddings', dims: 2 });

      const result = await adapter.embed({ model: 'text-embedding-3-small', texts, purpose: 'CORPUS' });

      expect(stub.requests.map((request) => request.body.input.length)).toEqual([OPENAI_EMBEDDINGS_MAX_BATCH, 3]);
      expect(result.vectors).toHaveLength(texts.length);
      expect(result.vectors.at(-1)).toEqual(deterministicVector(`text ${OPENAI_EMBEDDINGS_MAX_BATCH + 2}`, 2));
    });

    it('rejects an answer with fewer vectors than texts as invalid_response', async () => {
      stub.enqueue({ type: 'embeddings', vectors: [[0.5, 0.5]] });

      const error = await rejection(adapter.embed({ model: 'text-embedding-3-small', texts: ['alpha', 'beta'], purpose: 'CORPUS' }));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'invalid_response' });
    });
  });
});
