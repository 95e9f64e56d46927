import type { ServerResponse } from 'node:http';
import {
  approximateTokens,
  chunk,
  ScriptedStubServer,
  wordDeltas,
  writeSseFrames,
  type SseFrame,
  type StubMessageReply,
  type StubReply,
  type StubRequest,
} from './scripted-stub.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/**
 * A local server speaking the Anthropic Messages API (`POST /v1/messages`): JSON answers, and SSE streams
 * (`message_start`, text and `tool_use` content blocks with `input_json_delta` fragments, `message_delta`
 * with stop reason and usage, `message_stop`) when the request sets `stream: true`.
 *
 * @example
 * const stub = await new AnthropicStub().start();
 * stub.enqueue(textReply('Hello there'));
 * const client = new Anthropic({ apiKey: 'test', baseURL: stub.baseURL, maxRetries: 0 });
 */
export class AnthropicStub extends ScriptedStubServer {
  get baseURL(): string {
    return this.origin;
  }

  protected serves(method: string, path: string): boolean {
    return method === 'POST' && path === '/v1/messages';
  }

  protected misfit(path: string, reply: StubReply): string | undefined {
    return reply.type === 'message' ? undefined : `a "${reply.type}" reply cannot answer ${path}`;
  }

  protected renderError(
    res: ServerResponse,
    status: number,
    message: string,
    errorType: string | undefined,
    headers: Record<string, string>,
  ): void {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': this.nextId('req_stub_'), ...headers });
    res.end(
      JSON.stringify({ type: 'error', error: { type: errorType ?? ERROR_TYPES[status] ?? 'api_error', message } }),
    );
  }

  protected async render(request: StubRequest, reply: StubReply, res: ServerResponse): Promise<void> {
    if (reply.type !== 'message') return;
    const body = (request.body ?? {}) as {
      model?: string;
      stream?: boolean;
      messages?: unknown;
      system?: unknown;
      tools?: unknown;
    };
    const toolCalls = (reply.toolCalls ?? []).map((call) => ({
      id: call.id ?? this.nextId('toolu_stub_'),
      name: call.name,
      json: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    const stopReason = reply.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn');
    const usage = reply.usage ?? {
      inputTokens: approximateTokens([body.system, body.messages, body.tools]),
      outputTokens: approximateTokens((reply.text ?? '') + toolCalls.map((call) => call.json).join('')),
    };
    const id = this.nextId('msg_stub_');
    const model = body.model ?? 'unknown';
    if (body.stream === true) {
      await this.#stream(res, reply, { id, model, toolCalls, stopReason, usage });
      return;
    }
    const content: unknown[] = [];
    if (reply.text !== undefined && reply.text !== '')
      content.push({ type: 'text', text: reply.text, citations: null });
    for (const call of toolCalls)
      content.push({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: parseOrRaw(call.json),
        caller: { type: 'direct' },
      });
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': this.nextId('req_stub_') });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: messageUsage(usage.inputTokens, usage.outputTokens),
      }),
    );
  }

  async #stream(
    res: ServerResponse,
    reply: StubMessageReply,
    message: {
      id: string;
      model: string;
      toolCalls: { id: string; name: string; json: string }[];
      stopReason: string;
      usage: { inputTokens: number; outputTokens: number };
    },
  ): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': this.nextId('req_stub_'),
    });
    const frames: SseFrame[] = [];
    const send = (data: { type: string } & Record<string, unknown>) => frames.push({ data, event: data.type });
    let firstDelta: number | undefined;
    const sendDelta = (data: { type: string } & Record<string, unknown>) => {
      send(data);
      firstDelta ??= frames.length - 1;
    };
    send({
      type: 'message_start',
      message: {
        id: message.id,
        type: 'message',
        role: 'assistant',
        model: message.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: messageUsage(message.usage.inputTokens, 1),
      },
    });
    send({ type: 'ping' });
    let index = 0;
    const deltas = reply.textDeltas ?? (reply.text ? wordDeltas(reply.text) : []);
    if (deltas.length > 0) {
      send({ type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } });
      for (const text of deltas) sendDelta({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      send({ type: 'content_block_stop', index });
      index += 1;
    }
    for (const call of message.toolCalls) {
      send({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {}, caller: { type: 'direct' } },
      });
      for (const fragment of chunk(call.json, reply.argumentChunkSize ?? 7)) {
        sendDelta({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: fragment } });
      }
      send({ type: 'content_block_stop', index });
      index += 1;
    }
    if (!reply.truncate) {
      send({
        type: 'message_delta',
        delta: { stop_reason: message.stopReason, stop_sequence: null, stop_details: null, container: null },
        usage: { output_tokens: message.usage.outputTokens },
      });
      send({ type: 'message_stop' });
    }
    const hold =
      reply.holdAfterFirstDelta && firstDelta !== undefined
        ? { after: firstDelta, until: reply.holdAfterFirstDelta }
        : undefined;
    await writeSseFrames(res, frames, hold);
    if (!res.destroyed) res.end();
  }
}

function messageUsage(inputTokens: number, outputTokens: number) {
  return {
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
    cache_creation: null,
    server_tool_use: null,
    service_tier: 'standard',
  };
}

/** Scripted arguments as the object they encode (or the raw text, to script malformed input). */
function parseOrRaw(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
