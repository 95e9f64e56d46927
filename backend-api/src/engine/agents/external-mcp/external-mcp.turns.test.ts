import { LLM_Model, type FlowsActors_Agent } from '@wildo/shared-lib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, postStream } from '../../../testing/agents.fixtures.js';
import { signUp, type TestUser } from '../../../testing/identity.fixtures.js';
import { AnthropicStub, textReply, toolCallsReply } from '../../../testing/llm-stubs/index.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { recordingLogger } from '../../observability/observability.fixtures.js';
import { actor, actorSystem, applicationOf, flowsModule, languageAgent } from '../systems/agents-registry.fixtures.js';
import type { PendingApproval } from '../approvals/approval.service.js';
import { closedPortUrl, WeatherMcpServer } from './external-mcp.fixtures.js';

const WEATHER_KEY = 'Bearer weather-test-key';
/** The names the vendor sees for the external tool, per configured server. */
const WEATHER_TOOL = 'mcp_weather_lookup_weather';
const GATED_TOOL = 'mcp_gated_lookup_weather';

/** A chat agent (pinned model) naming external servers only. */
const chatAgent = (ref: string, mcpRefs: string[]): FlowsActors_Agent =>
  languageAgent({ ref, model: LLM_Model.CLAUDE_SONNET_5, capabilities: { tools: { mcpRefs } } });

/** USER-scoped, FRONTEND systems (the fixtures' default), one per agent. */
const SYSTEMS = {
  weather: { ref: 'weather-chat', agent: chatAgent('weather.chat.agent', ['weather']) },
  gated: { ref: 'gated-weather-chat', agent: chatAgent('gated-weather.chat.agent', ['gated']) },
  flaky: { ref: 'flaky-weather-chat', agent: chatAgent('flaky-weather.chat.agent', ['offline', 'weather']) },
  wrongKey: {
    ref: 'wrong-key-weather-chat',
    agent: chatAgent('wrong-key-weather.chat.agent', ['wrong-key', 'weather']),
  },
} as const;

const weatherModule = flowsModule('weather', {
  agents: Object.values(SYSTEMS).map((s) => s.agent),
  flowActorSystemsFactoryMap: Object.fromEntries(
    Object.values(SYSTEMS).map((s) => [s.ref, () => actorSystem(s.ref, [actor(`${s.ref}.operator`, s.agent.ref)])]),
  ),
});

const turnsOf = (systemRef: string) => `/api/v1/flows-actors/systems/${systemRef}/turns`;
/** Tool names of a recorded Anthropic request. */
const toolNamesOf = (body: { tools?: { name: string }[] }) => (body.tools ?? []).map((tool) => tool.name);

describe('external MCP servers in a streaming turn (real SDK server over Streamable HTTP)', () => {
  const db = useTestDatabase();
  const stub = new AnthropicStub();
  const weather = new WeatherMcpServer({ authorization: WEATHER_KEY });
  const logger = recordingLogger();
  let t: TestBackend;
  let user: TestUser;

  beforeAll(async () => {
    await stub.start();
    await weather.start();
    const offline = await closedPortUrl();
    const key = () => ({ authorization: WEATHER_KEY });
    t = await createTestBackend(db(), {
      application: applicationOf(weatherModule),
      logger,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: stub.baseURL },
      providers: { maxRetries: 0 },
      externalMcpServers: [
        { ref: 'weather', url: weather.url, headers: key, timeoutMs: 5_000 },
        { ref: 'gated', url: weather.url, headers: key, timeoutMs: 5_000, requiresHumanApproval: true },
        { ref: 'offline', url: offline, timeoutMs: 5_000 },
        {
          ref: 'wrong-key',
          url: weather.url,
          headers: () => ({ authorization: 'Bearer not-the-key' }),
          timeoutMs: 5_000,
        },
      ],
    });
    user = await signUp(t.api, 'weather-user');
  });
  afterEach(() => {
    expect(stub.pending, 'every scripted model reply was used').toBe(0);
    stub.reset();
    weather.reset();
    logger.lines.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await stub.close();
    await weather.close();
  });

  const decide = (approval: PendingApproval, decision: 'approve' | 'deny') =>
    postStream(t.api, `/api/v1/flows-actors/approvals/${approval.approvalId}/decision`, user.auth, {
      approvalToken: approval.approvalToken,
      decision,
    });

  it('discovers the server’s tools at turn start and offers them to the model under their vendor-safe name', async () => {
    stub.enqueue(textReply('I can look up the weather.'));
    const res = await postStream(t.api, turnsOf(SYSTEMS.weather.ref), user.auth, { message: 'What can you do?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    const body = stub.requests[0]!.body as {
      tools?: { name: string; description: string; input_schema: { properties?: Record<string, unknown> } }[];
    };
    expect(toolNamesOf(body)).toEqual([WEATHER_TOOL]);
    expect(body.tools![0]).toMatchObject({
      description: 'Current weather of a city.',
      input_schema: { properties: { city: expect.any(Object) } },
    });
    // Discovery only: nothing ran on the server.
    expect(weather.calls).toEqual([]);
  });

  it('runs the model’s call on the external server and streams the server’s content as the tool result', async () => {
    stub.enqueue(
      toolCallsReply([{ id: 'call-weather', name: WEATHER_TOOL, arguments: { city: 'Lisbon' } }]),
      textReply('It is sunny in Lisbon.'),
    );
    const res = await postStream(t.api, turnsOf(SYSTEMS.weather.ref), user.auth, { message: 'Weather in Lisbon?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(eventsOf(res.turn, 'tool_call')[0]).toMatchObject({
      toolCallId: 'call-weather',
      functionRef: 'mcp:weather/lookup_weather',
      arguments: { city: 'Lisbon' },
    });
    expect(eventsOf(res.turn, 'tool_result')[0]).toMatchObject({
      toolCallId: 'call-weather',
      functionRef: 'mcp:weather/lookup_weather',
      outcome: { ok: true, result: [{ type: 'text', text: WeatherMcpServer.forecast('Lisbon') }] },
    });
    expect(eventsOf(res.turn, 'approval_required')).toEqual([]);
    expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    expect(weather.calls).toEqual([{ tool: 'lookup_weather', args: { city: 'Lisbon' } }]);
    // The model read the server's answer in the next request.
    expect(JSON.stringify(stub.requests[1]!.body.messages)).toContain(WeatherMcpServer.forecast('Lisbon'));
  });

  it('sends the configured headers with every request to the external server', async () => {
    stub.enqueue(
      toolCallsReply([{ id: 'call-headers', name: WEATHER_TOOL, arguments: { city: 'Faro' } }]),
      textReply('Sunny.'),
    );
    const res = await postStream(t.api, turnsOf(SYSTEMS.weather.ref), user.auth, { message: 'Weather in Faro?' });
    expect(res.status).toBe(200);
    expect(weather.calls).toHaveLength(1);
    const posts = weather.requestHeaders.filter((headers) => headers['content-type']?.includes('application/json'));
    expect(posts.length).toBeGreaterThanOrEqual(3); // initialize, tools/list, tools/call (and notifications)
    expect(new Set(posts.map((headers) => headers.authorization))).toEqual(new Set([WEATHER_KEY]));
  });

  it('pauses a call to a server configured with requiresHumanApproval before it reaches the server', async () => {
    stub.enqueue(toolCallsReply([{ id: 'call-gated', name: GATED_TOOL, arguments: { city: 'Porto' } }]));
    const res = await postStream(t.api, turnsOf(SYSTEMS.gated.ref), user.auth, { message: 'Weather in Porto?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(toolNamesOf(stub.requests[0]!.body)).toEqual([GATED_TOOL]);
    const [paused] = eventsOf(res.turn, 'approval_required');
    expect(paused?.approval).toMatchObject({
      functionRef: 'mcp:gated/lookup_weather',
      toolCallId: 'call-gated',
      arguments: { city: 'Porto' },
    });
    expect(eventsOf(res.turn, 'tool_result')).toEqual([]);
    expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'awaiting_approval' });
    expect(weather.calls).toEqual([]);
  });

  it('runs a gated call on the external server once the person approves it', async () => {
    stub.enqueue(toolCallsReply([{ id: 'call-approved', name: GATED_TOOL, arguments: { city: 'Braga' } }]));
    const res = await postStream(t.api, turnsOf(SYSTEMS.gated.ref), user.auth, { message: 'Weather in Braga?' });
    const [paused] = eventsOf(res.turn, 'approval_required');
    expect(paused, JSON.stringify(res.turn)).toBeDefined();
    expect(weather.calls).toEqual([]);

    stub.enqueue(textReply('Sunny in Braga.'));
    const resumed = await decide(paused!.approval, 'approve');
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(eventsOf(resumed.turn, 'approval_decided')[0]).toMatchObject({
      decision: 'approve',
      toolCallId: 'call-approved',
    });
    expect(eventsOf(resumed.turn, 'tool_result')[0]).toMatchObject({
      functionRef: 'mcp:gated/lookup_weather',
      outcome: { ok: true, result: [{ type: 'text', text: WeatherMcpServer.forecast('Braga') }] },
    });
    expect(eventsOf(resumed.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    expect(weather.calls).toEqual([{ tool: 'lookup_weather', args: { city: 'Braga' } }]);
  });

  it('never runs a gated call the person denies; the model reads the refusal', async () => {
    stub.enqueue(toolCallsReply([{ id: 'call-denied', name: GATED_TOOL, arguments: { city: 'Evora' } }]));
    const res = await postStream(t.api, turnsOf(SYSTEMS.gated.ref), user.auth, { message: 'Weather in Evora?' });
    const [paused] = eventsOf(res.turn, 'approval_required');
    expect(paused, JSON.stringify(res.turn)).toBeDefined();

    stub.enqueue(textReply('OK, I will not look it up.'));
    const resumed = await decide(paused!.approval, 'deny');
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(eventsOf(resumed.turn, 'tool_result')[0]).toMatchObject({
      functionRef: 'mcp:gated/lookup_weather',
      outcome: { ok: false, error: { code: 'DENIED' } },
    });
    expect(eventsOf(resumed.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    expect(weather.calls).toEqual([]);
    expect(JSON.stringify(stub.requests.at(-1)!.body.messages)).toContain('DENIED');
  });

  it('leaves out an unreachable server: the turn completes with the reachable server’s tools and a warning names the mcpRef', async () => {
    stub.enqueue(
      toolCallsReply([{ id: 'call-flaky', name: WEATHER_TOOL, arguments: { city: 'Coimbra' } }]),
      textReply('Sunny in Coimbra.'),
    );
    const res = await postStream(t.api, turnsOf(SYSTEMS.flaky.ref), user.auth, { message: 'Weather in Coimbra?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    // No mcp_offline_* tool was offered; the reachable server's tool was, and ran.
    expect(toolNamesOf(stub.requests[0]!.body)).toEqual([WEATHER_TOOL]);
    expect(eventsOf(res.turn, 'tool_result')[0]).toMatchObject({ outcome: { ok: true } });
    expect(weather.calls).toEqual([{ tool: 'lookup_weather', args: { city: 'Coimbra' } }]);
    const warnings = logger.lines.filter((line) => line.level === 'warn' && /external MCP server/.test(line.message));
    expect(warnings.map((line) => line.fields.mcpRef)).toEqual(['offline']);
    expect(warnings[0]!.message).toMatch(/unavailable/);
  });

  it('leaves out a server that refuses the configured credential, with a warning naming the mcpRef', async () => {
    stub.enqueue(textReply('Only the weather service answered.'));
    const res = await postStream(t.api, turnsOf(SYSTEMS.wrongKey.ref), user.auth, { message: 'Hello' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    // Same URL, the right key: offered; the wrong key: left out.
    expect(toolNamesOf(stub.requests[0]!.body)).toEqual([WEATHER_TOOL]);
    const warnings = logger.lines.filter((line) => line.level === 'warn' && /external MCP server/.test(line.message));
    expect(warnings.map((line) => line.fields.mcpRef)).toEqual(['wrong-key']);
  });
});
