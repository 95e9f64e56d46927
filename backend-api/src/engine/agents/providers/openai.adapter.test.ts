import { describe, expect, it } from 'vitest';
import {
  deterministicVector,
  errorReply,
  OpenAIStub,
  structuredReply,
  STUB_PNG_BASE64,
  textReply,
} from '../../../testing/llm-stubs/index.js';
import { describeChatAdapterContract, type ChatAdapterVendor } from './adapter.contract.js';
import {
  abortInFlight,
  chatRequest,
  collect,
  expectAbortError,
  expectProviderError,
  OPENAI_SETUP,
  rejection,
  structuredRequest,
  useStubbedAdapter,
  WEATHER_TOOL,
} from './adapter.fixtures.js';
import type { ChatStreamRequest } from './llm-provider.types.js';
import { OPENAI_EMBEDDINGS_MAX_BATCH, type OpenAIAdapter } from './openai.adapter.js';

const MODEL = 'gpt-5';

const OPENAI: ChatAdapterVendor<OpenAIStub, OpenAIAdapter> = {
  ...OPENAI_SETUP,
  model: MODEL,
  toolCallIdPrefix: 'call_',
  stopReasonName: 'finish reason',
  stopReasons: [
    ['stop', 'stop'],
    ['length', 'length'],
    ['content_filter', 'content_filter'],
  ],
  toolCallsStopReason: 'tool_calls',
  lengthStopReason: 'length',
  streamUsageSource: 'the final usage chunk (stream_options.include_usage)',
  refusalReply: { type: 'message', refusal: 'I cannot help with that.' },
};

function chat(request: Partial<ChatStreamRequest> = {}): ChatStreamRequest {
  return chatRequest(MODEL, request);
}

describe('OpenAIAdapter against the OpenAI stub', () => {
  const harness = useStubbedAdapter(OPENAI);

  describeChatAdapterContract(OPENAI, harness);

  describe('streamChat (Chat Completions)', () => {
    it('posts a streaming request with include_usage to /v1/chat/completions with the API key', async () => {
      harness.stub.enqueue(textReply('Hi'));

      await collect(harness.adapter.streamChat(chat()));

      const [request] = harness.stub.requests;
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
      harness.stub.enqueue(textReply('Arr'));

      await collect(harness.adapter.streamChat(chat({ system: 'You are a pirate.' })));

      expect(harness.stub.requests[0]?.body.messages).toEqual([
        { role: 'system', content: 'You are a pirate.' },
        { role: 'user', content: 'Hello' },
      ]);
    });

    it('sends maxOutputTokens, temperature and reasoningEffort as their Chat Completions parameters', async () => {
      harness.stub.enqueue(textReply('Hi'));

      await collect(
        harness.adapter.streamChat(chat({ maxOutputTokens: 300, temperature: 0.3, reasoningEffort: 'high' })),
      );

      expect(harness.stub.requests[0]?.body).toMatchObject({
        max_completion_tokens: 300,
        temperature: 0.3,
        reasoning_effort: 'high',
      });
    });

    it('sends tools as functions, without the $schema keyword', async () => {
      harness.stub.enqueue(textReply('No tool needed'));

      await collect(harness.adapter.streamChat(chat({ tools: [WEATHER_TOOL] })));

      expect(harness.stub.requests[0]?.body.tools).toEqual([
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather in a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      ]);
    });

    it('streams a refusal as text', async () => {
      harness.stub.enqueue({ type: 'message', refusal: 'I cannot help with that.' });

      const events = await collect(harness.adapter.streamChat(chat()));

      expect(events.filter((event) => event.type === 'text_delta')).toEqual([
        { type: 'text_delta', text: 'I cannot help with that.' },
      ]);
    });

    it('translates assistant tool calls and tool results into tool_calls and tool messages', async () => {
      harness.stub.enqueue(textReply('It is 18°C in Paris.'));

      await collect(
        harness.adapter.streamChat(
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

      expect(harness.stub.requests[0]?.body.messages).toEqual([
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
  });

  describe('errors (Embeddings API)', () => {
    it('maps an error of the Embeddings API the same way (500 -> unavailable)', async () => {
      harness.stub.enqueue(errorReply(500, 'The server had an error'));

      const error = await rejection(
        harness.adapter.embed({ model: 'text-embedding-3-small', texts: ['a'], purpose: 'CORPUS' }),
      );

      expectProviderError(error, { kind: 'unavailable', status: 500 });
    });
  });

  describe('abort (Embeddings API)', () => {
    it('rejects an embeddings call with the AbortError when aborted in flight', async () => {
      const error = await abortInFlight(
        harness.stub,
        (waitFor) => ({ type: 'embeddings', waitFor }),
        (signal) => harness.adapter.embed({ model: 'text-embedding-3-small', texts: ['a'], purpose: 'QUERY', signal }),
      );

      expectAbortError(error);
    });
  });

  describe('generateStructured (response_format json_schema)', () => {
    const STRUCTURED = structuredRequest(MODEL);

    it('sends a strict json_schema response_format for a strict-compatible schema, without $schema', async () => {
      harness.stub.enqueue(structuredReply({ name: 'red' }));

      await harness.adapter.generateStructured({ ...STRUCTURED, system: 'Answer briefly.' });

      const body = harness.stub.requests[0]?.body;
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
          schema: {
            type: 'object',
            properties: { name: { type: 'string' } },
            required: ['name'],
            additionalProperties: false,
          },
        },
      });
    });

    it('sends strict false for a schema with an optional property', async () => {
      harness.stub.enqueue(structuredReply({ name: 'red' }));

      await harness.adapter.generateStructured({
        ...STRUCTURED,
        jsonSchema: {
          type: 'object',
          properties: { name: { type: 'string' }, hex: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
      });

      expect(harness.stub.requests[0]?.body.response_format.json_schema.strict).toBe(false);
    });

    it('sends a schema name the API accepts', async () => {
      harness.stub.enqueue(structuredReply({ name: 'red' }));

      await harness.adapter.generateStructured({ ...STRUCTURED, schemaName: 'todo.summary v2' });

      expect(harness.stub.requests[0]?.body.response_format.json_schema.name).toBe('todo_summary_v2');
    });
  });

  describe('generateImage (Images API)', () => {
    it('returns the b64_json images with their media type', async () => {
      harness.stub.enqueue({ type: 'images' });

      const result = await harness.adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square' });

      expect(result.images).toEqual([{ base64: STUB_PNG_BASE64, mediaType: 'image/png' }]);
    });

    it('returns as many images as asked for with n', async () => {
      harness.stub.enqueue({ type: 'images' });

      const result = await harness.adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square', n: 3 });

      expect(result.images).toHaveLength(3);
    });

    it('sends the model, prompt, size, quality, background and output format', async () => {
      harness.stub.enqueue({ type: 'images' });

      await harness.adapter.generateImage({
        model: 'gpt-image-1.5',
        prompt: 'A red square',
        size: '1024x1536',
        quality: 'high',
        background: 'transparent',
        outputFormat: 'webp',
        n: 2,
      });

      expect(harness.stub.requests[0]?.path).toBe('/v1/images/generations');
      expect(harness.stub.requests[0]?.body).toEqual({
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
      harness.stub.enqueue({ type: 'images', outputFormat: 'jpeg', images: [{ base64: 'AAAA' }] });

      const result = await harness.adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square' });

      expect(result.images).toEqual([{ base64: 'AAAA', mediaType: 'image/jpeg' }]);
    });

    it('reports the usage of the image call', async () => {
      harness.stub.enqueue({ type: 'images', usage: { inputTokens: 9, outputTokens: 272 } });

      const result = await harness.adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square' });

      expect(result.usage).toEqual({ inputTokens: 9, outputTokens: 272, totalTokens: 281 });
    });

    it('rejects an answer without images as invalid_response', async () => {
      harness.stub.enqueue({ type: 'images', images: [] });

      const error = await rejection(harness.adapter.generateImage({ model: 'gpt-image-1.5', prompt: 'A red square' }));

      expectProviderError(error, { kind: 'invalid_response' });
    });
  });

  describe('embed (Embeddings API)', () => {
    it('returns one vector per text, in the order of the texts', async () => {
      harness.stub.enqueue({ type: 'embeddings', dims: 4 });

      const result = await harness.adapter.embed({
        model: 'text-embedding-3-small',
        texts: ['alpha', 'beta', 'gamma'],
        purpose: 'CORPUS',
      });

      expect(result.vectors).toEqual([
        deterministicVector('alpha', 4),
        deterministicVector('beta', 4),
        deterministicVector('gamma', 4),
      ]);
    });

    it('puts vectors back in text order when the API lists them out of order', async () => {
      harness.stub.enqueue({ type: 'embeddings', dims: 4, reverseOrder: true });

      const result = await harness.adapter.embed({
        model: 'text-embedding-3-small',
        texts: ['alpha', 'beta', 'gamma'],
        purpose: 'CORPUS',
      });

      expect(result.vectors).toEqual([
        deterministicVector('alpha', 4),
        deterministicVector('beta', 4),
        deterministicVector('gamma', 4),
      ]);
    });

    it('reports the vector length as dims', async () => {
      harness.stub.enqueue({ type: 'embeddings', dims: 6 });

      const result = await harness.adapter.embed({
        model: 'text-embedding-3-small',
        texts: ['alpha'],
        purpose: 'QUERY',
      });

      expect(result.dims).toBe(6);
    });

    it('reports the model that answered and the input tokens as usage', async () => {
      harness.stub.enqueue({ type: 'embeddings', usage: { inputTokens: 11 } });

      const result = await harness.adapter.embed({
        model: 'text-embedding-3-small',
        texts: ['alpha', 'beta'],
        purpose: 'CORPUS',
      });

      expect(result.model).toBe('text-embedding-3-small');
      expect(result.usage).toEqual({ inputTokens: 11, outputTokens: 0, totalTokens: 11 });
    });

    it('passes dimensions through and gets vectors of that length', async () => {
      harness.stub.enqueue({ type: 'embeddings' });

      const result = await harness.adapter.embed({
        model: 'text-embedding-3-large',
        texts: ['alpha'],
        purpose: 'QUERY',
        dimensions: 12,
      });

      expect(harness.stub.requests[0]?.body).toMatchObject({
        model: 'text-embedding-3-large',
        input: ['alpha'],
        dimensions: 12,
      });
      expect(result.dims).toBe(12);
      expect(result.vectors[0]).toHaveLength(12);
    });

    it('omits dimensions when none is asked for', async () => {
      harness.stub.enqueue({ type: 'embeddings' });

      await harness.adapter.embed({ model: 'text-embedding-3-small', texts: ['alpha'], purpose: 'QUERY' });

      expect(harness.stub.requests[0]?.body).not.toHaveProperty('dimensions');
    });

    it('sends more texts than one request takes in consecutive batches, keeping the order', async () => {
      const texts = Array.from({ length: OPENAI_EMBEDDINGS_MAX_BATCH + 3 }, (_, index) => `text ${index}`);
      harness.stub.enqueue({ type: 'embeddings', dims: 2 }, { type: 'embeddings', dims: 2 });

      const result = await harness.adapter.embed({ model: 'text-embedding-3-small', texts, purpose: 'CORPUS' });

      expect(harness.stub.requests.map((request) => request.body.input.length)).toEqual([
        OPENAI_EMBEDDINGS_MAX_BATCH,
        3,
      ]);
      expect(result.vectors).toHaveLength(texts.length);
      expect(result.vectors.at(-1)).toEqual(deterministicVector(`text ${OPENAI_EMBEDDINGS_MAX_BATCH + 2}`, 2));
    });

    it('rejects an answer with fewer vectors than texts as invalid_response', async () => {
      harness.stub.enqueue({ type: 'embeddings', vectors: [[0.5, 0.5]] });

      const error = await rejection(
        harness.adapter.embed({ model: 'text-embedding-3-small', texts: ['alpha', 'beta'], purpose: 'CORPUS' }),
      );

      expectProviderError(error, { kind: 'invalid_response' });
    });
  });
});
