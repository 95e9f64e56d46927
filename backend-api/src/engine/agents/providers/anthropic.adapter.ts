import type Anthropic from '@anthropic-ai/sdk';
import type { AgentCallUsage } from '@wildo/shared-lib';
import { callSdk, lazySdk, sdkClientOptions, sdkRequestOptions, type SdkBinding } from './adapter-support.js';
import {
  ProviderCallError,
  type ChatStreamEvent,
  type ChatStreamRequest,
  type LLMProviderAdapter,
  type ProviderAdapterOptions,
  type ProviderCallSettings,
  type ProviderFinishReason,
  type ProviderMessage,
  type StructuredRequest,
  type StructuredResult,
} from './llm-provider.types.js';
import { parseModelJson, parseToolArguments, toProviderError, withoutSchemaKeyword } from './provider-errors.js';

/** The vendor's API when no base URL is given (the environment is never read for it). */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** `max_tokens` is required by the Messages API; this is sent when the call sets no `maxOutputTokens`. */
export const ANTHROPIC_DEFAULT_MAX_OUTPUT_TOKENS = 4096;

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;
type StopReason = Anthropic.Messages.StopReason;
type MessageCreateParamsBase = Anthropic.Messages.MessageCreateParamsNonStreaming;

/** Maps the Messages API's stop reasons to provider-neutral ones. */
export function mapAnthropicStopReason(reason: StopReason | null | undefined): ProviderFinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

interface AnthropicUsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Input tokens include cache writes and reads (the vendor counts them apart). */
function toUsage(usage: AnthropicUsageLike): AgentCallUsage {
  const inputTokens =
    (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  const outputTokens = usage.output_tokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

/**
 * Provider-neutral messages as Messages API turns: assistant tool calls become `tool_use` blocks, tool results
 * become `tool_result` blocks of a user turn, and consecutive user-side content is merged into one turn.
 */
export function toAnthropicMessages(messages: readonly ProviderMessage[]): MessageParam[] {
  const turns: MessageParam[] = [];
  const pushUser = (blocks: ContentBlockParam[]) => {
    const last = turns.at(-1);
    if (last?.role === 'user' && Array.isArray(last.content)) {
      last.content.push(...blocks);
      return;
    }
    turns.push({ role: 'user', content: blocks });
  };
  for (const message of messages) {
    if (message.role === 'user') {
      pushUser([{ type: 'text', text: message.content }]);
    } else if (message.role === 'tool') {
      const block: ContentBlockParam = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content: message.content,
      };
      if (message.isError) block.is_error = true;
      pushUser([block]);
    } else {
      const blocks: ContentBlockParam[] = [];
      if (message.content !== '') blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? [])
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
      if (blocks.length > 0) turns.push({ role: 'assistant', content: blocks });
    }
  }
  return turns;
}

/** The Messages API adapter (`@anthropic-ai/sdk`): streaming chat with tools and structured output. */
export class AnthropicAdapter implements LLMProviderAdapter {
  readonly ref: string;
  /** The SDK client, built by the first call. */
  readonly #sdk: () => Promise<SdkBinding<Anthropic>>;

  constructor(options: ProviderAdapterOptions & { ref?: string }) {
    this.ref = options.ref ?? 'anthropic';
    const clientOptions = sdkClientOptions(options, ANTHROPIC_DEFAULT_BASE_URL);
    this.#sdk = lazySdk(async () => {
      const sdk = await import('@anthropic-ai/sdk');
      const { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } = sdk;
      return {
        client: new sdk.Anthropic(clientOptions),
        errors: { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError },
      };
    });
  }

  /**
   * The parameters every call shares: model, system prompt, token cap, effort. The Messages API of SDK 1.15.0
   * has no `temperature` (the catalogue refuses it at registration); a call that still sets one is refused
   * here rather than sent without it.
   */
  #baseParams(
    settings: ProviderCallSettings,
  ): Pick<MessageCreateParamsBase, 'model' | 'max_tokens' | 'system' | 'output_config'> {
    if (settings.temperature !== undefined) {
      throw new ProviderCallError(
        this.ref,
        'refused',
        `${this.ref}: the Messages API does not accept temperature; remove it from the agent's config`,
      );
    }
    const params: Pick<MessageCreateParamsBase, 'model' | 'max_tokens' | 'system' | 'output_config'> = {
      model: settings.model,
      max_tokens: settings.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_OUTPUT_TOKENS,
    };
    if (settings.system !== undefined && settings.system !== '') params.system = settings.system;
    if (settings.reasoningEffort !== undefined) params.output_config = { effort: settings.reasoningEffort };
    return params;
  }

  async *streamChat(request: ChatStreamRequest): AsyncIterable<ChatStreamEvent> {
    const params: Anthropic.Messages.MessageCreateParamsStreaming = {
      ...this.#baseParams(request),
      messages: toAnthropicMessages(request.messages),
      stream: true,
    };
    if (request.tools && request.tools.length > 0) {
      params.tools = request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: withoutSchemaKeyword(tool.inputSchema) as Anthropic.Messages.Tool.InputSchema,
      }));
    }
    const usage: AnthropicUsageLike = {};
    let stopReason: StopReason | null = null;
    let sawStop = false;
    const toolBlocks = new Map<number, { id: string; name: string; json: string }>();
    const { client, errors } = await this.#sdk();
    try {
      const stream = await client.messages.create(params, sdkRequestOptions(request.signal));
      for await (const event of stream) {
        // Events already buffered when the caller aborted are not passed on.
        request.signal?.throwIfAborted();
        switch (event.type) {
          case 'message_start':
            Object.assign(usage, pickUsage(event.message.usage));
            break;
          case 'content_block_start':
            if (event.content_block.type === 'tool_use') {
              toolBlocks.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
            }
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta') {
              if (event.delta.text !== '') yield { type: 'text_delta', text: event.delta.text };
            } else if (event.delta.type === 'input_json_delta') {
              const block = toolBlocks.get(event.index);
              if (block) block.json += event.delta.partial_json;
            }
            break;
          case 'content_block_stop': {
            const block = toolBlocks.get(event.index);
            if (block) {
              toolBlocks.delete(event.index);
              yield {
                type: 'tool_call',
                call: {
                  id: block.id,
                  name: block.name,
                  arguments: parseToolArguments(this.ref, block.name, block.json),
                },
              };
            }
            break;
          }
          case 'message_delta':
            // The delta's counts are cumulative: they replace, not add to, those of `message_start`.
            Object.assign(usage, pickUsage(event.usage));
            if (event.delta.stop_reason) stopReason = event.delta.stop_reason;
            break;
          case 'message_stop':
            sawStop = true;
            break;
        }
      }
      // The SDK ends its stream quietly when the request's signal aborts mid-body: that is the caller's abort,
      // not a truncated answer.
      request.signal?.throwIfAborted();
    } catch (error) {
      throw toProviderError(this.ref, error, errors, request.signal);
    }
    if (!sawStop || stopReason === null) {
      throw new ProviderCallError(
        this.ref,
        'invalid_response',
        `${this.ref} ended the stream before the message was complete (no stop reason)`,
      );
    }
    yield { type: 'finish', finishReason: mapAnthropicStopReason(stopReason), usage: toUsage(usage) };
  }

  /**
   * Structured output through the Messages API's `output_config.format` (JSON schema), which SDK 1.15.0
   * supports: the answer is one text block holding the JSON document.
   */
  async generateStructured(request: StructuredRequest): Promise<StructuredResult> {
    const base = this.#baseParams(request);
    const params: Anthropic.Messages.MessageCreateParamsNonStreaming = {
      ...base,
      messages: [{ role: 'user', content: request.prompt }],
      output_config: {
        ...base.output_config,
        format: { type: 'json_schema', schema: withoutSchemaKeyword(request.jsonSchema) },
      },
    };
    const { client, errors } = await this.#sdk();
    const message = await callSdk(this.ref, errors, request.signal, (options) =>
      client.messages.create(params, options),
    );
    if (message.stop_reason === 'refusal') {
      throw new ProviderCallError(
        this.ref,
        'refused',
        `${this.ref} refused to produce "${request.schemaName}" (stop reason: refusal)`,
      );
    }
    const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    if (message.stop_reason === 'max_tokens' || message.stop_reason === 'model_context_window_exceeded') {
      throw new ProviderCallError(
        this.ref,
        'invalid_response',
        `${this.ref} stopped at the token limit before completing "${request.schemaName}"; raise maxOutputTokens (sent ${base.max_tokens})`,
      );
    }
    if (text.trim() === '') {
      throw new ProviderCallError(
        this.ref,
        'invalid_response',
        `${this.ref} returned no JSON for "${request.schemaName}"`,
      );
    }
    return {
      object: parseModelJson(this.ref, text, `"${request.schemaName}"`),
      finishReason: mapAnthropicStopReason(message.stop_reason),
      usage: toUsage(message.usage),
    };
  }
}

/** The usage counts present in an event (absent or null counts do not overwrite earlier ones). */
function pickUsage(usage: AnthropicUsageLike | null | undefined): AnthropicUsageLike {
  const picked: AnthropicUsageLike = {};
  if (!usage) return picked;
  for (const key of [
    'input_tokens',
    'output_tokens',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
  ] as const) {
    const value = usage[key];
    if (typeof value === 'number') picked[key] = value;
  }
  return picked;
}
