import { describe, expect, it } from 'vitest';
import { AnthropicStub, errorReply, structuredReply, textReply } from '../../../testing/llm-stubs/index.js';
import { describeChatAdapterContract, type ChatAdapterVendor } from './adapter.contract.js';
import {
  ANTHROPIC_SETUP,
  chatRequest,
  collect,
  expectProviderError,
  rejection,
  structuredRequest,
  useStubbedAdapter,
  WEATHER_TOOL,
} from './adapter.fixtures.js';
import type { AnthropicAdapter } from './anthropic.adapter.js';
import type { ChatStreamRequest } from './llm-provider.types.js';

const MODEL = 'claude-sonnet-5';

const ANTHROPIC: ChatAdapterVendor<AnthropicStub, AnthropicAdapter> = {
  ...ANTHROPIC_SETUP,
  model: MODEL,
  toolCallIdPrefix: 'toolu_',
  stopReasonName: 'stop reason',
  stopReasons: [
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'other'],
  ],
  toolCallsStopReason: 'tool_use',
  lengthStopReason: 'max_tokens',
  streamUsageSource: 'message_start input tokens and message_delta output tokens',
  refusalReply: textReply('', { stopReason: 'refusal' }),
};

function chat(request: Partial<ChatStreamRequest> = {}): ChatStreamRequest {
  return chatRequest(MODEL, request);
}

describe('AnthropicAdapter against the Messages API stub', () => {
  const harness = useStubbedAdapter(ANTHROPIC);

  describeChatAdapterContract(ANTHROPIC, harness);

  describe('streamChat (Messages API)', () => {
    it('sends the model, the messages and the default max_tokens to /v1/messages with the API key as bearer token', async () => {
      harness.stub.enqueue(textReply('Hi'));

      await collect(harness.adapter.streamChat(chat()));

      expect(harness.stub.requests).toHaveLength(1);
      const [request] = harness.stub.requests;
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
      harness.stub.enqueue(textReply('Arr'));

      await collect(harness.adapter.streamChat(chat({ system: 'You are a pirate.' })));

      expect(harness.stub.requests[0]?.body.system).toBe('You are a pirate.');
      expect(JSON.stringify(harness.stub.requests[0]?.body.messages)).not.toContain('pirate');
    });

    it('omits system when no system prompt is set', async () => {
      harness.stub.enqueue(textReply('Hi'));

      await collect(harness.adapter.streamChat(chat()));

      expect(harness.stub.requests[0]?.body).not.toHaveProperty('system');
    });

    it('sends maxOutputTokens as max_tokens and reasoningEffort as output_config.effort', async () => {
      harness.stub.enqueue(textReply('Hi'));

      await collect(harness.adapter.streamChat(chat({ maxOutputTokens: 256, reasoningEffort: 'low' })));

      expect(harness.stub.requests[0]?.body).toMatchObject({ max_tokens: 256, output_config: { effort: 'low' } });
    });

    it('refuses a temperature (the Messages API has none) without calling the vendor', async () => {
      const error = await rejection(collect(harness.adapter.streamChat(chat({ temperature: 0.2 }))));

      expectProviderError(error, { kind: 'refused', providerRef: 'anthropic' });
      expect(harness.stub.requests).toHaveLength(0);
    });

    it('sends tools with their input schemas, without the $schema keyword', async () => {
      harness.stub.enqueue(textReply('No tool needed'));

      await collect(harness.adapter.streamChat(chat({ tools: [WEATHER_TOOL] })));

      expect(harness.stub.requests[0]?.body.tools).toEqual([
        {
          name: 'get_weather',
          description: 'The weather in a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ]);
    });

    it('translates assistant tool calls and tool results into tool_use and tool_result blocks', async () => {
      harness.stub.enqueue(textReply('It is 18°C and sunny in Paris; the Louvre closes at 6pm.'));

      await collect(
        harness.adapter.streamChat(
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

      expect(harness.stub.requests[0]?.body.messages).toEqual([
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
      harness.stub.enqueue(textReply('Done'));

      await collect(
        harness.adapter.streamChat(
          chat({
            messages: [
              { role: 'user', content: 'List my todos' },
              { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_1', name: 'list_todos', arguments: {} }] },
              { role: 'tool', toolCallId: 'toolu_1', name: 'list_todos', content: '[]' },
            ],
          }),
        ),
      );

      expect(harness.stub.requests[0]?.body.messages[1]).toEqual({
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_todos', input: {} }],
      });
    });

    it('counts cache writes and reads as input tokens', async () => {
      const sse = [
        [
          'message_start',
          {
            type: 'message_start',
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: MODEL,
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: {
                input_tokens: 10,
                output_tokens: 1,
                cache_creation_input_tokens: 100,
                cache_read_input_tokens: 1000,
              },
            },
          },
        ],
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'message_delta',
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 3 },
          },
        ],
        ['message_stop', { type: 'message_stop' }],
      ] as const;
      harness.stub.enqueue({
        type: 'raw',
        contentType: 'text/event-stream',
        body: sse.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(''),
      });

      const events = await collect(harness.adapter.streamChat(chat()));

      expect(events.at(-1)).toMatchObject({
        type: 'finish',
        usage: { inputTokens: 1110, outputTokens: 3, totalTokens: 1113 },
      });
    });

    it('maps an error event inside the stream to unavailable', async () => {
      harness.stub.enqueue({
        type: 'raw',
        contentType: 'text/event-stream',
        body: `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
      });

      const error = await rejection(collect(harness.adapter.streamChat(chat())));

      expectProviderError(error, { kind: 'unavailable' });
    });
  });

  describe('errors (Messages API)', () => {
    it('maps 529 (overloaded) to unavailable', async () => {
      harness.stub.enqueue(errorReply(529, 'Overloaded'));

      const error = await rejection(collect(harness.adapter.streamChat(chat())));

      expectProviderError(error, { kind: 'unavailable', status: 529 });
    });
  });

  describe('generateStructured (output_config.format)', () => {
    it('asks for the schema through output_config.format, without the $schema keyword', async () => {
      harness.stub.enqueue(structuredReply({ name: 'red' }));

      await harness.adapter.generateStructured({
        ...structuredRequest(MODEL),
        reasoningEffort: 'medium',
        system: 'Answer briefly.',
      });

      const body = harness.stub.requests[0]?.body;
      expect(body).not.toHaveProperty('stream');
      expect(body).toMatchObject({
        model: MODEL,
        system: 'Answer briefly.',
        messages: [{ role: 'user', content: 'Name a colour.' }],
        output_config: {
          effort: 'medium',
          format: {
            type: 'json_schema',
            schema: {
              type: 'object',
              properties: { name: { type: 'string' } },
              required: ['name'],
              additionalProperties: false,
            },
          },
        },
      });
      expect(body.output_config.format.schema).not.toHaveProperty('$schema');
    });
  });
});
