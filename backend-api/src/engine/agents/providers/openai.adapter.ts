import type { AgentCallUsage } from '@wildo/shared-lib';
import type OpenAI from 'openai';
import { callSdk, lazySdk, sdkClientOptions, sdkRequestOptions, type SdkBinding } from './adapter-support.js';
import {
  ProviderCallError,
  type ChatStreamEvent,
  type ChatStreamRequest,
  type EmbeddingsRequest,
  type EmbeddingsResult,
  type ImageRequest,
  type ImageResult,
  type LLMProviderAdapter,
  type ProviderAdapterOptions,
  type ProviderCallSettings,
  type ProviderFinishReason,
  type ProviderMessage,
  type StructuredRequest,
  type StructuredResult,
} from './llm-provider.types.js';
import { findModelByVendorId } from './model-catalogue.js';
import { parseModelJson, parseToolArguments, toProviderError, withoutSchemaKeyword } from './provider-errors.js';

/** The vendor's API when no base URL is given (the environment is never read for it). */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The most inputs one Embeddings API request takes; longer lists are sent in consecutive batches. */
export const OPENAI_EMBEDDINGS_MAX_BATCH = 2048;

type ChatMessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatCreateParamsBase = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/** Maps Chat Completions finish reasons to provider-neutral ones. */
export function mapOpenAIFinishReason(reason: string | null | undefined): ProviderFinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

function toUsage(
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null | undefined,
): AgentCallUsage {
  const inputTokens = usage?.prompt_tokens ?? 0;
  const outputTokens = usage?.completion_tokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: usage?.total_tokens ?? inputTokens + outputTokens };
}

/**
 * Provider-neutral messages as Chat Completions messages (the system prompt first). The API has no error flag
 * on tool results, so a failed tool's content is prefixed with `[tool error]`.
 */
export function toOpenAIMessages(system: string | undefined, messages: readonly ProviderMessage[]): ChatMessageParam[] {
  const out: ChatMessageParam[] = [];
  if (system !== undefined && system !== '') out.push({ role: 'system', content: system });
  for (const message of messages) {
    if (message.role === 'user') {
      out.push({ role: 'user', content: message.content });
    } else if (message.role === 'tool') {
      out.push({
        role: 'tool',
        tool_call_id: message.toolCallId,
        content: message.isError ? `[tool error] ${message.content}` : message.content,
      });
    } else {
      const toolCalls = message.toolCalls ?? [];
      out.push({
        role: 'assistant',
        content: message.content === '' && toolCalls.length > 0 ? null : message.content,
        ...(toolCalls.length > 0
          ? {
              tool_calls: toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }
          : {}),
      });
    }
  }
  return out;
}

/**
 * Whether OpenAI's `strict` mode accepts a schema: every object schema closed (`additionalProperties: false`)
 * and listing all its properties as required.
 */
export function isStrictCompatibleSchema(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(isStrictCompatibleSchema);
  if (schema === null || typeof schema !== 'object') return true;
  const node = schema as Record<string, unknown>;
  const properties = node.properties;
  if (node.type === 'object' || (properties !== null && typeof properties === 'object')) {
    if (node.additionalProperties !== false) return false;
    const keys = Object.keys((properties as Record<string, unknown> | undefined) ?? {});
    const required = Array.isArray(node.required) ? node.required : [];
    if (!keys.every((key) => required.includes(key))) return false;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      if (value && typeof value === 'object' && !Object.values(value).every(isStrictCompatibleSchema)) return false;
    } else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') {
      if (!isStrictCompatibleSchema(value)) return false;
    }
  }
  return true;
}

/** The Chat Completions, Images and Embeddings adapter (`openai`). */
export class OpenAIAdapter implements LLMProviderAdapter {
  readonly ref: string;
  /** The SDK client, built by the first call. */
  readonly #sdk: () => Promise<SdkBinding<OpenAI>>;

  constructor(options: ProviderAdapterOptions & { ref?: string }) {
    this.ref = options.ref ?? 'openai';
    // Passed explicitly so the process environment (OPENAI_ORG_ID, ...) never changes what is sent.
    const clientOptions = { ...sdkClientOptions(options, OPENAI_DEFAULT_BASE_URL), organization: null, project: null };
    this.#sdk = lazySdk(async () => {
      const sdk = await import('openai');
      const { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } = sdk;
      return {
        client: new sdk.OpenAI(clientOptions),
        errors: { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError },
      };
    });
  }

  #baseParams(
    settings: ProviderCallSettings,
  ): Pick<ChatCreateParamsBase, 'model' | 'max_completion_tokens' | 'temperature' | 'reasoning_effort'> {
    const params: Pick<ChatCreateParamsBase, 'model' | 'max_completion_tokens' | 'temperature' | 'reasoning_effort'> = {
      model: settings.model,
    };
    if (settings.maxOutputTokens !== undefined) params.max_completion_tokens = settings.maxOutputTokens;
    if (settings.temperature !== undefined) params.temperature = settings.temperature;
    if (settings.reasoningEffort !== undefined) params.reasoning_effort = settings.reasoningEffort;
    return params;
  }

  async *streamChat(request: ChatStreamRequest): AsyncIterable<ChatStreamEvent> {
    const params: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
      ...this.#baseParams(request),
      messages: toOpenAIMessages(request.system, request.messages),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.tools && request.tools.length > 0) {
      params.tools = request.tools.map((tool) => ({
        type: 'function' as const,
        function: {
          name: tool.name,
          description: tool.description,
          parameters: withoutSchemaKeyword(tool.inputSchema),
        },
      }));
    }
    const calls = new Map<number, { id: string; name: string; json: string }>();
    let finishReason: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    const { client, errors } = await this.#sdk();
    try {
      const stream = await client.chat.completions.create(params, sdkRequestOptions(request.signal));
      for await (const chunk of stream) {
        // Chunks already buffered when the caller aborted are not passed on.
        request.signal?.throwIfAborted();
        if (chunk.usage) usage = chunk.usage;
        for (const choice of chunk.choices) {
          if (choice.index !== 0) continue;
          const { delta } = choice;
          if (delta?.content) yield { type: 'text_delta', text: delta.content };
          // A refusal is the assistant's answer in place of content: the user reads it like any reply.
          if (delta?.refusal) yield { type: 'text_delta', text: delta.refusal };
          for (const fragment of delta?.tool_calls ?? []) {
            let call = calls.get(fragment.index);
            if (!call) {
              call = { id: fragment.id ?? '', name: fragment.function?.name ?? '', json: '' };
              calls.set(fragment.index, call);
            } else {
              if (fragment.id) call.id = fragment.id;
              if (fragment.function?.name) call.name = fragment.function.name;
            }
            call.json += fragment.function?.arguments ?? '';
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
      }
      // The SDK ends its stream quietly when the request's signal aborts mid-body: that is the caller's abort,
      // not a truncated answer.
      request.signal?.throwIfAborted();
    } catch (error) {
      throw toProviderError(this.ref, error, errors, request.signal);
    }
    if (finishReason === null) {
      throw new ProviderCallError(
        this.ref,
        'invalid_response',
        `${this.ref} ended the stream before the completion was complete (no finish reason)`,
      );
    }
    for (const [index, call] of [...calls].sort(([a], [b]) => a - b)) {
      if (call.id === '' || call.name === '') {
        throw new ProviderCallError(
          this.ref,
          'invalid_response',
          `${this.ref} streamed a tool call without an id or a name (index ${index})`,
        );
      }
      yield {
        type: 'tool_call',
        call: { id: call.id, name: call.name, arguments: parseToolArguments(this.ref, call.name, call.json) },
      };
    }
    yield { type: 'finish', finishReason: mapOpenAIFinishReason(finishReason), usage: toUsage(usage) };
  }

  /** Structured output through `response_format: json_schema` (strict when the schema allows it). */
  async generateStructured(request: StructuredRequest): Promise<StructuredResult> {
    const schema = withoutSchemaKeyword(request.jsonSchema);
    const params: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      ...this.#baseParams(request),
      messages: toOpenAIMessages(request.system, [{ role: 'user', content: request.prompt }]),
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: toSchemaName(request.schemaName),
          schema,
          strict: request.strict ?? isStrictCompatibleSchema(schema),
        },
      },
    };
    const { client, errors } = await this.#sdk();
    const completion = await callSdk(this.ref, errors, request.signal, (options) =>
      client.chat.completions.create(params, options),
    );
    const choice = completion.choices[0];
    if (!choice)
      throw new ProviderCallError(
        this.ref,
        'invalid_response',
        `${this.ref} returned no choice for "${request.schemaName}"`,
      );
    if (choice.message.refusal) {
      throw new ProviderCallError(
        this.ref,
        'refused',
        `${this.ref} refused to produce "${request.schemaName}": ${choice.message.refusal}`,
      );
    }
    if (choice.finish_reason === 'content_filter') {
      throw new ProviderCallError(
        this.ref,
        'refused',
        `${this.ref} filtered the answer for "${request.schemaName}" (finish reason: content_filter)`,
      );
    }
    if (choice.finish_reason === 'length') {
      throw new ProviderCallError(
        this.ref,
        'invalid_response',
        `${this.ref} stopped at the token limit before completing "${request.schemaName}"; raise maxOutputTokens`,
      );
    }
    const text = choice.message.content ?? '';
    if (text.trim() === '')
      throw new ProviderCallError(
        this.ref,
        'invalid_response',
        `${this.ref} returned no JSON for "${request.schemaName}"`,
      );
    return {
      object: parseModelJson(this.ref, text, `"${request.schemaName}"`),
      finishReason: mapOpenAIFinishReason(choice.finish_reason),
      usage: toUsage(completion.usage),
    };
  }

  /** The Images API: GPT image models always answer with base64 (`b64_json`). */
  async generateImage(request: ImageRequest): Promise<ImageResult> {
    const params: OpenAI.Images.ImageGenerateParamsNonStreaming = { model: request.model, prompt: request.prompt };
    if (request.n !== undefined) params.n = request.n;
    if (request.size !== undefined) params.size = request.size as OpenAI.Images.ImageGenerateParams['size'];
    if (request.quality !== undefined) params.quality = request.quality as OpenAI.Images.ImageGenerateParams['quality'];
    if (request.background !== undefined)
      params.background = request.background as OpenAI.Images.ImageGenerateParams['background'];
    if (request.outputFormat !== undefined)
      params.output_format = request.outputFormat as OpenAI.Images.ImageGenerateParams['output_format'];
    const { client, errors } = await this.#sdk();
    const response = await callSdk(this.ref, errors, request.signal, (options) =>
      client.images.generate(params, options),
    );
    const format = response.output_format ?? request.outputFormat ?? 'png';
    const mediaType = `image/${format === 'jpg' ? 'jpeg' : format}`;
    const data = response.data ?? [];
    if (data.length === 0) throw new ProviderCallError(this.ref, 'invalid_response', `${this.ref} returned no image`);
    const images = data.map((image, index) => {
      if (!image.b64_json) {
        throw new ProviderCallError(
          this.ref,
          'invalid_response',
          `${this.ref} returned image ${index} without base64 data (b64_json)`,
        );
      }
      return { base64: image.b64_json, mediaType };
    });
    const result: ImageResult = { images };
    if (response.usage) {
      result.usage = {
        inputTokens: response.usage.input_tokens,
        outputTokens: response.usage.output_tokens,
        totalTokens: response.usage.total_tokens,
      };
    }
    return result;
  }

  /** The Embeddings API: one vector per text, in the order given (batched by {@link OPENAI_EMBEDDINGS_MAX_BATCH}). */
  async embed(request: EmbeddingsRequest): Promise<EmbeddingsResult> {
    const vectors: number[][] = [];
    let model = request.model;
    let inputTokens = 0;
    const { client, errors } = await this.#sdk();
    for (let start = 0; start < request.texts.length; start += OPENAI_EMBEDDINGS_MAX_BATCH) {
      const batch = request.texts.slice(start, start + OPENAI_EMBEDDINGS_MAX_BATCH);
      const params: OpenAI.Embeddings.EmbeddingCreateParams = { model: request.model, input: batch };
      if (request.dimensions !== undefined) params.dimensions = request.dimensions;
      const response = await callSdk(this.ref, errors, request.signal, (options) =>
        client.embeddings.create(params, options),
      );
      if (response.data.length !== batch.length) {
        throw new ProviderCallError(
          this.ref,
          'invalid_response',
          `${this.ref} returned ${response.data.length} embeddings for ${batch.length} texts`,
        );
      }
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      ordered.forEach((item, offset) => {
        if (item.index !== offset)
          throw new ProviderCallError(
            this.ref,
            'invalid_response',
            `${this.ref} returned embeddings with missing indexes`,
          );
        vectors.push(item.embedding);
      });
      model = response.model || model;
      inputTokens += response.usage?.prompt_tokens ?? 0;
    }
    const dims =
      vectors[0]?.length ?? request.dimensions ?? findModelByVendorId(this.ref, request.model)?.embeddingDims ?? 0;
    if (vectors.some((vector) => vector.length !== dims)) {
      throw new ProviderCallError(this.ref, 'invalid_response', `${this.ref} returned vectors of different lengths`);
    }
    return { vectors, model, dims, usage: { inputTokens, outputTokens: 0, totalTokens: inputTokens } };
  }
}

/** A `json_schema.name` the API accepts: letters, digits, `_` and `-`, at most 64 characters. */
function toSchemaName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'response' : cleaned;
}
