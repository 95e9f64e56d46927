import type { ServerResponse } from 'node:http';
import {
  approximateTokens,
  chunk,
  deterministicVector,
  ScriptedStubServer,
  STUB_PNG_BASE64,
  wordDeltas,
  writeSseFrames,
  type SseFrame,
  type StubEmbeddingsReply,
  type StubImagesReply,
  type StubMessageReply,
  type StubReply,
  type StubRequest,
} from './scripted-stub.js';

const CHAT_PATH = '/v1/chat/completions';
const IMAGES_PATH = '/v1/images/generations';
const EMBEDDINGS_PATH = '/v1/embeddings';

const FITS: Record<string, StubReply['type']> = {
  [CHAT_PATH]: 'message',
  [IMAGES_PATH]: 'images',
  [EMBEDDINGS_PATH]: 'embeddings',
};

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'permission_error',
  404: 'invalid_request_error',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  503: 'server_error',
};

/**
 * A local server speaking OpenAI's Chat Completions (`POST /v1/chat/completions`, JSON or SSE
 * `chat.completion.chunk`s with content and `tool_calls` deltas and, with `stream_options.include_usage`,
 * a final usage chunk), Images (`POST /v1/images/generations`, `b64_json`) and Embeddings
 * (`POST /v1/embeddings`, float or base64 encoding) APIs.
 *
 * @example
 * const stub = await new OpenAIStub().start();
 * stub.enqueue({ type: 'embeddings', dims: 4 });
 * const client = new OpenAI({ apiKey: 'test', baseURL: stub.baseURL, maxRetries: 0 });
 */
export class OpenAIStub extends ScriptedStubServer {
  /** Includes `/v1`, as the SDK expects. */
  get baseURL(): string {
    return `${this.origin}/v1`;
  }

  protected serves(method: string, path: string): boolean {
    return method === 'POST' && Object.hasOwn(FITS, path);
  }

  protected misfit(path: string, reply: StubReply): string | undefined {
    return FITS[path] === reply.type
      ? undefined
      : `a "${reply.type}" reply cannot answer ${path} (it takes "${FITS[path]}")`;
  }

  protected renderError(
    res: ServerResponse,
    status: number,
    message: string,
    errorType: string | undefined,
    headers: Record<string, string>,
  ): void {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': this.nextId('req_stub_'), ...headers });
    res.end(
      JSON.stringify({
        error: { message, type: errorType ?? ERROR_TYPES[status] ?? 'server_error', param: null, code: null },
      }),
    );
  }

  protected async render(request: StubRequest, reply: StubReply, res: ServerResponse): Promise<void> {
    if (reply.type === 'message') await this.#chat(request, reply, res);
    else if (reply.type === 'images') this.#images(request, reply, res);
    else if (reply.type === 'embeddings') this.#embeddings(request, reply, res);
  }

  #json(res: ServerResponse, value: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': this.nextId('req_stub_') });
    res.end(JSON.stringify(value));
  }

  async #chat(request: StubRequest, reply: StubMessageReply, res: ServerResponse): Promise<void> {
    const body = (request.body ?? {}) as {
      model?: string;
      stream?: boolean;
      messages?: unknown;
      tools?: unknown;
      stream_options?: { include_usage?: boolean };
    };
    const toolCalls = (reply.toolCalls ?? []).map((call) => ({
      id: call.id ?? this.nextId('call_stub_'),
      name: call.name,
      json: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    const finishReason = reply.stopReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
    const usageCounts = reply.usage ?? {
      inputTokens: approximateTokens([body.messages, body.tools]),
      outputTokens: approximateTokens(
        (reply.text ?? '') + (reply.refusal ?? '') + toolCalls.map((call) => call.json).join(''),
      ),
    };
    const usage = {
      prompt_tokens: usageCounts.inputTokens,
      completion_tokens: usageCounts.outputTokens,
      total_tokens: usageCounts.inputTokens + usageCounts.outputTokens,
    };
    const id = this.nextId('chatcmpl-stub-');
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'unknown';

    if (body.stream !== true) {
      const message: Record<string, unknown> = {
        role: 'assistant',
        content: reply.text ?? null,
        refusal: reply.refusal ?? null,
      };
      if (toolCalls.length > 0) {
        message.tool_calls = toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.json },
        }));
      }
      this.#json(res, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
        usage,
      });
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-request-id': this.nextId('req_stub_'),
    });
    const frames: SseFrame[] = [];
    let firstDelta: number | undefined;
    const send = (delta: Record<string, unknown>, finish: string | null = null) =>
      frames.push({
        data: {
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
        },
      });
    const sendDelta = (delta: Record<string, unknown>) => {
      send(delta);
      firstDelta ??= frames.length - 1;
    };
    send({ role: 'assistant', content: '' });
    for (const text of reply.textDeltas ?? (reply.text ? wordDeltas(reply.text) : [])) sendDelta({ content: text });
    if (reply.refusal) sendDelta({ refusal: reply.refusal });
    toolCalls.forEach((call, index) => {
      send({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
      for (const fragment of chunk(call.json, reply.argumentChunkSize ?? 7))
        sendDelta({ tool_calls: [{ index, function: { arguments: fragment } }] });
    });
    if (!reply.truncate) {
      send({}, finishReason);
      if (body.stream_options?.include_usage)
        frames.push({ data: { id, object: 'chat.completion.chunk', created, model, choices: [], usage } });
      frames.push({ data: '[DONE]' });
    }
    const hold =
      reply.holdAfterFirstDelta && firstDelta !== undefined
        ? { after: firstDelta, until: reply.holdAfterFirstDelta }
        : undefined;
    await writeSseFrames(res, frames, hold);
    if (!res.destroyed) res.end();
  }

  #images(request: StubRequest, reply: StubImagesReply, res: ServerResponse): void {
    const body = (request.body ?? {}) as {
      n?: number;
      prompt?: string;
      output_format?: string;
      size?: string;
      quality?: string;
      background?: string;
    };
    const count = reply.count ?? body.n ?? 1;
    const images = reply.images ?? Array.from({ length: count }, () => ({ base64: STUB_PNG_BASE64 }));
    const usage = reply.usage ?? {
      inputTokens: approximateTokens(body.prompt ?? ''),
      outputTokens: 272 * images.length,
    };
    this.#json(res, {
      created: Math.floor(Date.now() / 1000),
      data: images.map((image) => ({ b64_json: image.base64 })),
      output_format: reply.outputFormat ?? body.output_format ?? 'png',
      size: body.size ?? '1024x1024',
      quality: body.quality ?? 'medium',
      background: body.background ?? 'opaque',
      usage: {
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
        input_tokens_details: { image_tokens: 0, text_tokens: usage.inputTokens },
      },
    });
  }

  #embeddings(request: StubRequest, reply: StubEmbeddingsReply, res: ServerResponse): void {
    const body = (request.body ?? {}) as {
      model?: string;
      input?: string | string[];
      encoding_format?: string;
      dimensions?: number;
    };
    const texts = Array.isArray(body.input) ? body.input : [body.input ?? ''];
    const dims = reply.dims ?? body.dimensions ?? 8;
    const vectors = reply.vectors ?? texts.map((text) => deterministicVector(String(text), dims));
    const base64 = body.encoding_format === 'base64';
    const data = vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    }));
    if (reply.reverseOrder) data.reverse();
    const inputTokens =
      reply.usage?.inputTokens ?? texts.reduce((sum, text) => sum + approximateTokens(String(text)), 0);
    this.#json(res, {
      object: 'list',
      data,
      model: body.model ?? 'unknown',
      usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
    });
  }
}
