import {
  FlowsActors_Agent_Skill_Type,
  FlowsActors_Agent_Status,
  ImageProvider_GenerateImageInputSchema,
  ImageProvider_GenerateImageOutputSchema,
  ImageProvider_Model,
  ImageProvider_OperationContext_BaseSchema,
  ImageProvider_OperationKey,
  ImageProvider_Size,
  LLMProvider_ChatCompletionInputSchema,
  ResourceOperationRiskLevel,
  ResourcePrimaryScope,
  type FlowsActors_Agent,
  type FlowsActors_Agent_Invocation,
  type ImageProvider_GenerateImageOutput,
} from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  TASKS_MANAGER_TYPES,
  TICKET_TRIAGE_AGENT_REF,
  TODO_ASSISTANT_AGENT_REF,
  type TicketTriageBackendService,
} from '../../../modules/tasks-manager/flows-actors/index.js';
import { readGeneratedRuntime } from '../../../testing/generated-runtime.js';
import {
  AnthropicStub,
  OpenAIStub,
  STUB_PNG_BASE64,
  structuredReply,
  textReply,
} from '../../../testing/llm-stubs/index.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { defineBackendApplication } from '../../bootstrap/backend-domain-module.js';
import { SAAS_SERVICE_TYPES } from '../../container/saas-service-types.tokens.js';
import { FrameworkError } from '../../errors/index.js';
import { createSilentLogger } from '../../logging/index.js';
import { CompositeTraceSink } from '../../observability/composite-trace-sink.js';
import { FakePostHogClient } from '../../observability/observability.fixtures.js';
import { PostHogTraceSink } from '../../observability/posthog-trace-sink.js';
import type { AgentsBackendService } from './agents-backend.service.js';
import { withOpenAIImages } from '../systems/agents-registry.fixtures.js';

const invocation = (
  agentRef: string,
  input: unknown,
  output: Record<string, unknown> = {},
): FlowsActors_Agent_Invocation => ({
  agentRef,
  initiator: {},
  invocationContext: [],
  input,
  output,
  executionContext: { callTimestamp: new Date().toISOString() },
  artifactBindings: [],
});

describe('AgentsBackendService.invokeAgent against the Anthropic stub', () => {
  const db = useTestDatabase();
  const stub = new AnthropicStub();
  const posthog = new FakePostHogClient();
  let t: TestBackend;
  let agents: AgentsBackendService;

  beforeAll(async () => {
    await stub.start();
    const logger = createSilentLogger();
    t = await createTestBackend(db(), {
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: stub.baseURL },
      providers: { maxRetries: 0 },
      traceSink: new CompositeTraceSink([new PostHogTraceSink({ client: posthog, logger })], logger),
    });
    agents = t.backend.container.get<AgentsBackendService>(SAAS_SERVICE_TYPES.AgentsBackendService);
  });
  afterAll(async () => {
    await t?.close();
    await stub.close();
  });

  it('triages a ticket through the injected TicketTriageBackendService, on the model the class resolved to', async () => {
    stub.enqueue(structuredReply({ category: 'billing', urgency: 'high', summary: 'The customer was charged twice.' }));
    const triage = t.backend.container.get<TicketTriageBackendService>(TASKS_MANAGER_TYPES.TicketTriageBackendService);
    expect(await triage.triageTicket('I was charged twice this month!')).toEqual({
      category: 'billing',
      urgency: 'high',
      summary: 'The customer was charged twice.',
    });
    const request = stub.requests.at(-1)!;
    expect(request.body.model).toBe('claude-sonnet-5');
    expect(JSON.stringify(request.body.system)).toContain('You triage inbound customer support tickets');
    expect(JSON.stringify(request.body.messages)).toContain('I was charged twice this month!');
  });

  it('refuses an answer that breaks the caller’s schema, naming the field', async () => {
    stub.enqueue(structuredReply({ category: 'refund', urgency: 'high', summary: 'x' }));
    const schema = z.object({ category: z.enum(['billing', 'bug']), urgency: z.string(), summary: z.string() });
    const error = await agents
      .invokeAgent(invocation(TICKET_TRIAGE_AGENT_REF, { prompt: 'Triage', schema }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrameworkError);
    expect(error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      problems: [expect.objectContaining({ path: 'category' })],
    });
  });

  it('refuses input that does not satisfy the operation’s contract before any provider call', async () => {
    const before = stub.requests.length;
    const error = await agents
      .invokeAgent(invocation(TICKET_TRIAGE_AGENT_REF, { prompt: '', schema: 'not a schema' }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', reason: 'input_invalid' });
    expect(stub.requests.length).toBe(before);
    // Positive control: a valid input reaches the provider.
    stub.enqueue(structuredReply('ok'));
    const accepted = await agents.invokeAgent(
      invocation(TICKET_TRIAGE_AGENT_REF, { prompt: 'Say ok', schema: z.string() }),
    );
    expect(accepted.output).toEqual({ object: 'ok' });
    expect(stub.requests.length).toBe(before + 1);
  });

  it('answers a chat completion with the assembled message; declared tools do not run on the buffered path', async () => {
    stub.enqueue(textReply('You have three todos.'));
    const result = await agents.invokeAgent(
      invocation(TODO_ASSISTANT_AGENT_REF, {
        messages: [{ role: 'user', content: 'How many todos?' }],
      } satisfies z.input<typeof LLMProvider_ChatCompletionInputSchema>),
    );
    expect(result.output).toEqual({ message: 'You have three todos.' });
    expect(result.model).toBe('claude-sonnet-5');
    expect(stub.requests.at(-1)!.body.tools).toBeUndefined();
  });

  it('refuses coding-agent options for a language agent, naming them, before any provider call or charge', async () => {
    const before = stub.requests.length;
    const ask = invocation(TICKET_TRIAGE_AGENT_REF, { prompt: 'Say ok', schema: z.string() });
    const coding = {
      workspaceRootPath: '/srv/workspace',
      isPermittedCodingLocation: () => true,
      codingSessionAbortSignal: new AbortController().signal,
    };
    const error = await agents.invokeAgent(ask, { traceId: 'coding' }, coding).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrameworkError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST' });
    expect((error as FrameworkError).message).toContain(
      `(workspaceRootPath, isPermittedCodingLocation, codingSessionAbortSignal), but "${TICKET_TRIAGE_AGENT_REF}" is not a coding agent`,
    );
    expect(stub.requests.length).toBe(before);
    // Positive control: the same call with the options it can honour (absent coding options included) answers.
    stub.enqueue(structuredReply('ok'));
    const accepted = await agents.invokeAgent(
      ask,
      { traceId: 'plain' },
      { signal: new AbortController().signal, workspaceRootPath: undefined },
    );
    expect(accepted.output).toEqual({ object: 'ok' });
  });

  it('refuses an unknown agent', async () => {
    await expect(agents.invokeAgent(invocation('no.such.agent', { prompt: 'x' }))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('emits a PostHog generation per call, without content unless capture is enabled', async () => {
    posthog.events.length = 0;
    stub.enqueue(textReply('Secret answer.', { usage: { inputTokens: 12, outputTokens: 3 } }));
    await agents.invokeAgent(
      invocation(TODO_ASSISTANT_AGENT_REF, { messages: [{ role: 'user', content: 'Secret question' }] }),
    );
    const [event] = posthog.events;
    expect(event).toMatchObject({
      event: '$ai_generation',
      properties: expect.objectContaining({ $ai_model: 'claude-sonnet-5', $ai_input_tokens: 12, $ai_output_tokens: 3 }),
    });
    expect(JSON.stringify(event)).not.toContain('Secret');
  });

  it('does not fail the model call when the PostHog client throws', async () => {
    posthog.failCapture = new Error('posthog is down');
    try {
      stub.enqueue(textReply('Still answered.'));
      const result = await agents.invokeAgent(
        invocation(TODO_ASSISTANT_AGENT_REF, { messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(result.output).toEqual({ message: 'Still answered.' });
    } finally {
      posthog.failCapture = undefined;
    }
  });

  it('maps a provider failure to a client-safe error without the vendor’s text, and never switches vendor', async () => {
    stub.enqueue({ type: 'error', status: 529, message: 'internal overload detail xyz' });
    const error = (await agents
      .invokeAgent(invocation(TODO_ASSISTANT_AGENT_REF, { messages: [{ role: 'user', content: 'Hi' }] }))
      .catch((e: unknown) => e)) as FrameworkError;
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(error.message).not.toContain('xyz');
    expect(stub.requests.at(-1)!.path).toBe('/v1/messages');
  });
});

describe('AgentsBackendService.invokeAgent: images on the OpenAI stub, and a provider without credentials', () => {
  const db = useTestDatabase();
  const stub = new OpenAIStub();
  const LOGO_AGENT = 'brand.logo.generation.agent';
  const logoAgent: FlowsActors_Agent = {
    ref: LOGO_AGENT,
    displayName: 'Logo Generation Agent',
    status: FlowsActors_Agent_Status.ACTIVE,
    config: {
      providerRef: 'openai',
      model: ImageProvider_Model.OPEN_AI_GPT_IMAGE_1_5,
      operationKey: ImageProvider_OperationKey.GENERATE_IMAGE,
      size: ImageProvider_Size.SQUARE_1024,
      n: 1,
      accessControl: [{ primaryScope: ResourcePrimaryScope.APPLICATION, requiresApproval: false }],
      riskLevel: ResourceOperationRiskLevel.LOW,
    },
    operationDefinition: {
      operationKey: ImageProvider_OperationKey.GENERATE_IMAGE,
      providerRef: 'openai',
      inputSchema: ImageProvider_GenerateImageInputSchema,
      outputSchema: ImageProvider_GenerateImageOutputSchema,
      operationContextSchema: ImageProvider_OperationContext_BaseSchema,
    },
    promptSpec: {
      role: 'You design one clean logo mark.',
      skillType: FlowsActors_Agent_Skill_Type.GENERATION,
      instructions: [],
    },
    createdAt: '2026-07-11T00:00:00.000Z',
  };
  const application = defineBackendApplication({
    name: 'images',
    modules: [{ name: 'brand', flowsActors: { agents: [logoAgent] } }],
  });
  let t: TestBackend;
  let bare: TestBackend;

  beforeAll(async () => {
    await stub.start();
    const runtime = withOpenAIImages(await readGeneratedRuntime());
    t = await createTestBackend(db(), {
      application,
      runtime,
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: stub.baseURL },
      providers: { maxRetries: 0 },
    });
    bare = await createTestBackend(db(), { application, runtime, env: {} });
  });
  afterAll(async () => {
    await t?.close();
    await bare?.close();
    await stub.close();
  });

  it('returns images with base64 bytes and a media type', async () => {
    stub.enqueue({ type: 'images' });
    const agents = t.backend.container.get<AgentsBackendService>(SAAS_SERVICE_TYPES.AgentsBackendService);
    const result = await agents.invokeAgent(invocation(LOGO_AGENT, { prompt: 'A fox, flat, orange' }, { images: [] }));
    const output = result.output as ImageProvider_GenerateImageOutput;
    expect(output.images[0]).toEqual({ base64: STUB_PNG_BASE64, mediaType: 'image/png' });
    expect(stub.requests.at(-1)).toMatchObject({
      path: '/v1/images/generations',
      body: expect.objectContaining({ model: 'gpt-image-1.5', size: '1024x1024' }),
    });
  });

  it('refuses clearly when the provider has no credential, without calling anyone', async () => {
    const before = stub.requests.length;
    const agents = bare.backend.container.get<AgentsBackendService>(SAAS_SERVICE_TYPES.AgentsBackendService);
    const error = (await agents
      .invokeAgent(invocation(LOGO_AGENT, { prompt: 'A fox' }))
      .catch((e: unknown) => e)) as FrameworkError;
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(error.message).toMatch(/not configured/);
    expect(stub.requests.length).toBe(before);
  });
});
