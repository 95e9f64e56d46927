import { afterEach, beforeEach, expect } from 'vitest';
import {
  AnthropicStub,
  deferred,
  OpenAIStub,
  type ScriptedStubServer,
  type StubReply,
} from '../../../testing/llm-stubs/index.js';
import { AnthropicAdapter } from './anthropic.adapter.js';
import {
  ProviderCallError,
  type ChatStreamEvent,
  type ChatStreamRequest,
  type LLMProviderAdapter,
  type ProviderToolSpec,
  type StructuredRequest,
} from './llm-provider.types.js';
import { OpenAIAdapter } from './openai.adapter.js';

/** Every event of a chat stream, in order. */
export async function collect(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** What `promise` rejected with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

/** `error` is a {@link ProviderCallError} with these fields. */
export function expectProviderError(
  error: unknown,
  fields: Partial<Pick<ProviderCallError, 'kind' | 'status' | 'providerRef' | 'retryAfterMs'>>,
): void {
  expect(error).toBeInstanceOf(ProviderCallError);
  expect(error).toMatchObject(fields);
}

/** `error` is the caller's `AbortError`: an abort is not a provider failure. */
export function expectAbortError(error: unknown): void {
  expect(error).not.toBeInstanceOf(ProviderCallError);
  expect(error).toMatchObject({ name: 'AbortError' });
}

/**
 * Starts `call` with a signal against a reply the stub holds back, aborts the signal once the request has
 * reached the stub, and returns what the call rejected with.
 */
export async function abortInFlight(
  stub: ScriptedStubServer,
  heldReply: (waitFor: Promise<void>) => StubReply,
  call: (signal: AbortSignal) => Promise<unknown>,
): Promise<unknown> {
  const gate = deferred();
  stub.enqueue(heldReply(gate.promise));
  const controller = new AbortController();
  const pending = rejection(call(controller.signal));
  await stub.waitForRequests(stub.requests.length + 1);

  controller.abort();
  const error = await pending;
  gate.resolve();
  return error;
}

/** A one-message chat request for `model`, with `request` laid over it. */
export function chatRequest(model: string, request: Partial<ChatStreamRequest> = {}): ChatStreamRequest {
  return { model, messages: [{ role: 'user', content: 'Hello' }], ...request };
}

/** A closed object schema with every property required (OpenAI strict-compatible), with a `$schema` keyword. */
const COLOUR_SCHEMA: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};

/** A structured request for {@link COLOUR_SCHEMA}. */
export function structuredRequest(model: string): StructuredRequest {
  return { model, prompt: 'Name a colour.', schemaName: 'colour', jsonSchema: COLOUR_SCHEMA };
}

/** A tool whose input schema carries the `$schema` keyword (which adapters strip). */
export const WEATHER_TOOL: ProviderToolSpec = {
  name: 'get_weather',
  description: 'The weather in a city',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { city: { type: 'string' } },
  },
};

/** How one vendor's adapter is stood up against that vendor's stub. */
export interface StubbedAdapterSetup<S extends ScriptedStubServer, A extends LLMProviderAdapter> {
  /** The provider ref the adapter reports (`providerRef` of its errors). */
  readonly ref: string;
  startStub(): Promise<S>;
  createAdapter(stub: S, options: { maxRetries: number }): A;
}

export const ANTHROPIC_SETUP: StubbedAdapterSetup<AnthropicStub, AnthropicAdapter> = {
  ref: 'anthropic',
  startStub: () => new AnthropicStub().start(),
  createAdapter: (stub, { maxRetries }) =>
    new AnthropicAdapter({ apiKey: 'sk-ant-test', baseURL: stub.baseURL, maxRetries }),
};

export const OPENAI_SETUP: StubbedAdapterSetup<OpenAIStub, OpenAIAdapter> = {
  ref: 'openai',
  startStub: () => new OpenAIStub().start(),
  createAdapter: (stub, { maxRetries }) =>
    new OpenAIAdapter({ apiKey: 'sk-openai-test', baseURL: stub.baseURL, maxRetries }),
};

/** The stub and the adapter of the running test. */
export interface StubbedAdapter<S extends ScriptedStubServer, A extends LLMProviderAdapter> {
  readonly stub: S;
  readonly adapter: A;
}

/**
 * Before each test of the enclosing `describe`, starts the vendor's stub and builds an adapter on it that does
 * not retry (`maxRetries: 0`); closes the stub after each test.
 */
export function useStubbedAdapter<S extends ScriptedStubServer, A extends LLMProviderAdapter>(
  setup: StubbedAdapterSetup<S, A>,
): StubbedAdapter<S, A> {
  let current: StubbedAdapter<S, A> | undefined;
  beforeEach(async () => {
    const stub = await setup.startStub();
    current = { stub, adapter: setup.createAdapter(stub, { maxRetries: 0 }) };
  });
  afterEach(async () => {
    await current?.stub.close();
    current = undefined;
  });
  const running = (): StubbedAdapter<S, A> => {
    if (!current) throw new Error(`the ${setup.ref} stub runs only inside a test`);
    return current;
  };
  return {
    get stub() {
      return running().stub;
    },
    get adapter() {
      return running().adapter;
    },
  };
}
