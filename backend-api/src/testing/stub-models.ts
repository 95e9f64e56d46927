import { findModelByVendorId } from '../engine/agents/providers/model-catalogue.js';
import {
  AnthropicStub,
  OpenAIStub,
  textReply,
  toolCallsReply,
  type StubReply,
  type StubRequest,
} from './llm-stubs/index.js';

/** Which vendor's API a request reached. */
export type StubVendor = 'anthropic' | 'openai';

/** A model request read the same way whatever the vendor: what a scripted model usually decides on. */
export interface ModelRequestView {
  vendor: StubVendor;
  /** The text of the last message when a person wrote it; undefined after a tool round. */
  lastUserText?: string;
  /** The results the last message carries (the model speaks after a tool round), as text. */
  toolResults: { toolCallId: string; content: string }[];
  /** The tool names offered to the model in this request. */
  offeredTools: string[];
}

/** Decides a reply; `undefined` leaves it to {@link stubModelReply}. */
export type StubModelScript = (request: StubRequest, vendor: StubVendor) => StubReply | undefined;

/** Options of {@link startStubModels}. */
export interface StubModelsOptions {
  /** Consulted first for every request; default: none (the echo model answers). */
  script?: StubModelScript;
}

/** Both stand-ins, and the environment that points a backend at them. */
export interface StubModels {
  anthropic: AnthropicStub;
  openai: OpenAIStub;
  /** `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_BASE_URL`: pass as the backend's `env`. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const CALL = /^\s*call\s+(\S+)\s*([\s\S]*)$/i;
const MAX_RESULT_ECHO = 400;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

/** Text parts of an Anthropic content (a string, or blocks of which the text ones count). */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  const texts = listOf(content).flatMap((part) =>
    isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
  );
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function viewAnthropic(body: Record<string, unknown>): ModelRequestView {
  const last = listOf(body.messages).at(-1);
  const content = isRecord(last) ? last.content : undefined;
  const toolResults = listOf(content).flatMap((block) =>
    isRecord(block) && block.type === 'tool_result'
      ? [{ toolCallId: String(block.tool_use_id), content: contentText(block.content) ?? textOf(block.content) }]
      : [],
  );
  const offeredTools = listOf(body.tools).flatMap((tool) =>
    isRecord(tool) && typeof tool.name === 'string' ? [tool.name] : [],
  );
  const lastUserText =
    toolResults.length === 0 && isRecord(last) && last.role === 'user' ? contentText(content) : undefined;
  return { vendor: 'anthropic', toolResults, offeredTools, ...(lastUserText !== undefined ? { lastUserText } : {}) };
}

function viewOpenAI(body: Record<string, unknown>): ModelRequestView {
  const messages = listOf(body.messages).filter(isRecord);
  const trailingTools: Record<string, unknown>[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--) trailingTools.unshift(messages[i]!);
  const toolResults = trailingTools.map((message) => ({
    toolCallId: String(message.tool_call_id),
    content: contentText(message.content) ?? textOf(message.content),
  }));
  const offeredTools = listOf(body.tools).flatMap((tool) =>
    isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string' ? [tool.function.name] : [],
  );
  const last = messages.at(-1);
  const lastUserText = toolResults.length === 0 && last?.role === 'user' ? contentText(last.content) : undefined;
  return { vendor: 'openai', toolResults, offeredTools, ...(lastUserText !== undefined ? { lastUserText } : {}) };
}

/**
 * A model request (Anthropic Messages or OpenAI Chat Completions) as the same view: the person's last text, the
 * tool results the model is answering, the tools offered.
 *
 * @example
 * stub.setFallback((request) => (describeModelRequest(request, 'anthropic').toolResults.length > 0 ? textReply('Done.') : textReply('Hi')));
 */
export function describeModelRequest(request: StubRequest, vendor: StubVendor): ModelRequestView {
  const body: unknown = request.body;
  if (!isRecord(body)) return { vendor, toolResults: [], offeredTools: [] };
  return vendor === 'anthropic' ? viewAnthropic(body) : viewOpenAI(body);
}

/** The name the model sees for `name` (a function ref's dots become underscores), when it is offered. */
function offeredName(name: string, offered: readonly string[]): string | undefined {
  if (offered.includes(name)) return name;
  const safe = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return offered.includes(safe) ? safe : undefined;
}

/** `call <tool> {json}` as a tool call, or the text saying why it cannot be one. */
function callReply(name: string, rawArguments: string, offered: readonly string[]): StubReply {
  const tool = offeredName(name, offered);
  if (!tool) return textReply(`No tool "${name}" is offered in this turn (offered: ${offered.join(', ') || 'none'}).`);
  let parsed: unknown = {};
  try {
    parsed = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
  } catch {
    return textReply(`The arguments of "${tool}" are not JSON: write call ${tool} {"field": "value"}.`);
  }
  if (!isRecord(parsed)) return textReply(`The arguments of "${tool}" must be a JSON object.`);
  return toolCallsReply([{ name: tool, arguments: parsed }], { text: `Calling ${tool}.` });
}

/**
 * The stand-in model's own behaviour, for any request a script leaves: after a tool round it says what the tools
 * returned; `call <tool> {json}` makes it call that tool (by the name the model sees, or by function ref); any other
 * message is echoed. Embeddings are deterministic vectors of the model's dimensions; images a placeholder PNG.
 *
 * @example
 * stub.setFallback((request) => stubModelReply(request, 'anthropic'));
 */
export function stubModelReply(request: StubRequest, vendor: StubVendor): StubReply {
  if (vendor === 'openai' && request.path.endsWith('/embeddings')) {
    const body: unknown = request.body;
    const requested = isRecord(body) && typeof body.dimensions === 'number' ? body.dimensions : undefined;
    const model = isRecord(body) && typeof body.model === 'string' ? body.model : '';
    return { type: 'embeddings', dims: requested ?? findModelByVendorId('openai', model)?.embeddingDims ?? 8 };
  }
  if (vendor === 'openai' && request.path.endsWith('/images/generations')) return { type: 'images' };
  const view = describeModelRequest(request, vendor);
  if (view.toolResults.length > 0) {
    const results = view.toolResults.map((result) => result.content.slice(0, MAX_RESULT_ECHO)).join('\n');
    return textReply(`The tool returned: ${results}`);
  }
  const text = view.lastUserText ?? '';
  const call = CALL.exec(text);
  if (call) return callReply(call[1]!, call[2] ?? '', view.offeredTools);
  return textReply(`Echo: ${text}`);
}

/**
 * Starts local Anthropic and OpenAI stand-ins answering from `script`, then from {@link stubModelReply}; `env`
 * points a backend at them with stub keys, so no provider account is used. `wildo dev --stub-models` runs these.
 *
 * @example
 * await using models = await startStubModels();
 * const backend = await createWildoBackend({ application, runtime, env: models.env });
 */
export async function startStubModels(options: StubModelsOptions = {}): Promise<StubModels & AsyncDisposable> {
  const anthropic = new AnthropicStub();
  const openai = new OpenAIStub();
  const answer = (vendor: StubVendor) => (request: StubRequest) =>
    options.script?.(request, vendor) ?? stubModelReply(request, vendor);
  anthropic.setFallback(answer('anthropic'));
  openai.setFallback(answer('openai'));
  const close = async () => {
    await Promise.all([anthropic.close(), openai.close()]);
  };
  try {
    await Promise.all([anthropic.start(), openai.start()]);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    anthropic,
    openai,
    env: {
      ANTHROPIC_API_KEY: 'stub-key',
      ANTHROPIC_BASE_URL: anthropic.baseURL,
      OPENAI_API_KEY: 'stub-key',
      OPENAI_BASE_URL: openai.baseURL,
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
