import { beforeAll, describe, expect, it, vi } from 'vitest';
import { A2A_PATH, a2aResult, a2aToken, v1Message } from '../../testing/a2a.fixtures.js';
import { useAssistantBackend } from '../../testing/agents.fixtures.js';
import { deferred, textReply, type Deferred } from '../../testing/llm-stubs/index.js';
import { MCP_BACKEND_OPTIONS, MCP_PATH, organizationApiKey, rpc } from '../../testing/mcp.fixtures.js';
import { useTestDatabase } from '../../testing/test-backend.js';
import { defineBackendApplication } from '../bootstrap/index.js';
import type { McpCustomTool } from '../mcp/mcp-tools.types.js';
import { referenceApplication } from '../../modules/index.js';
import { A2aRuntime } from '../a2a/a2a.module.js';
import type { EventStreamSettings } from '../routing/index.js';

// Every server-sent event stream (A2A streams and resubscriptions, MCP tool calls answered with progress, agent
// turns) counts against its principal's open streams, carries heartbeats, and is closed when idle, through the real
// server: the streams here are held open by HTTP clients, as a peer holds them.

const SKILL = { skillId: 'todo-assistant' };
const database = useTestDatabase();

/** Released by the test: the `slow_report` tool reports progress, then waits for it. */
let toolHold: Deferred = deferred();
const slowReport: McpCustomTool = {
  descriptor: {
    name: 'slow_report',
    description: 'Reports progress, then answers once the report is ready.',
    inputSchema: { type: 'object', properties: { hold: { type: 'boolean' } }, additionalProperties: false },
  },
  async call(args, context) {
    await context.progress?.(0, 1);
    if (args.hold === true) await toolHold.promise;
    return { content: [{ type: 'text', text: 'report ready' }] };
  },
};
const application = defineBackendApplication({
  ...referenceApplication,
  modules: [...referenceApplication.modules, { name: 'slow-tools', mcpTools: [slowReport] }],
});

/** A stream held open by a client: its answer's status and type, and its text as far as it was read. */
interface HeldStream {
  status: number;
  contentType: string;
  /** Reads until the server ends the response; returns all its text. */
  rest(): Promise<string>;
  /** Reads until `text` has arrived (the stream stays open). */
  until(text: string): Promise<string>;
  close(): void;
}

async function hold(url: string, headers: Record<string, string>, body: unknown): Promise<HeldStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const read = async (done: () => boolean): Promise<string> => {
    while (reader && !done()) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text;
  };
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    rest: () => read(() => false),
    until: (wanted) => read(() => text.includes(wanted)),
    close: () => abort.abort(),
  };
}

const a2aBody = (method: string, params: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method, params });

/**
 * The reference application (and its `slow_report` tool) listening on a port with these stream settings, and what the
 * tests hold streams with: the owner's A2A token, an MCP call of the organization's API key, a task the model holds.
 */
function useStreamingBackend(label: string, streams: Partial<EventStreamSettings>) {
  const assistant = useAssistantBackend(database, label, {
    ...MCP_BACKEND_OPTIONS,
    application,
    http: { streams },
  });
  const harness = {
    assistant,
    base: '',
    token: '',
    apiKey: '',
    /** Opens `SubscribeToTask` on a task as its owner. */
    subscribe: (taskId: string) =>
      hold(
        `${harness.base}${A2A_PATH}`,
        { authorization: harness.token, 'a2a-version': '1.0', accept: 'text/event-stream' },
        a2aBody('SubscribeToTask', { id: taskId }),
      ),
    /** Calls `slow_report` as the organization's API key, asking for progress. */
    callSlowReport: (progressToken: string, args: Record<string, unknown> = {}) =>
      hold(
        `${harness.base}${MCP_PATH}`,
        {
          authorization: harness.apiKey,
          'mcp-protocol-version': '2025-11-25',
          accept: 'application/json, text/event-stream',
        },
        rpc('tools/call', { name: 'slow_report', arguments: args, _meta: { progressToken } }),
      ),
    /** Starts a turn of the owner over the held connection. */
    turn: (message: string) =>
      hold(`${harness.base}${assistant.turns}`, { authorization: assistant.owner.auth.Authorization }, { message }),
    /** A task working until `release()`: the model's reply is held. */
    async heldTask(): Promise<{ id: string; release: () => void }> {
      const modelHold = deferred();
      assistant.stub.enqueue(textReply('Held answer', { waitFor: modelHold.promise }));
      const { task } = await a2aResult(
        assistant.t.api,
        A2A_PATH,
        'SendMessage',
        { message: v1Message('hold on'), metadata: SKILL, return_immediately: true },
        harness.token,
      );
      return { id: task.id as string, release: () => modelHold.resolve() };
    },
  };
  beforeAll(async () => {
    harness.base = (await assistant.t.backend.listen(0)).url;
    harness.token = await a2aToken(assistant.t.api, assistant.owner);
    harness.apiKey = await organizationApiKey(assistant.t.api, assistant.owner, assistant.orgId);
  });
  return harness;
}

describe('open streams per principal', () => {
  const streams = useStreamingBackend('streams-owner', {
    maxPerPrincipal: 2,
    heartbeatMs: 60_000,
    idleTimeoutMs: 120_000,
  });

  it('refuses a principal’s stream past the limit on every surface, and admits one again when a stream closes', async () => {
    const task = await streams.heldTask();
    const first = await streams.subscribe(task.id);
    const second = await streams.subscribe(task.id);
    expect([first.status, second.status]).toEqual([200, 200]);
    await first.until('TASK_STATE_WORKING');

    const third = await streams.subscribe(task.id);
    expect(third.status).toBe(429);
    expect(JSON.parse(await third.rest()).error.message).toBe(
      'At most 2 streams may be open at once; close one first.',
    );
    // A turn of the same person is refused before it starts, as an ordinary HTTP answer.
    const turn = await streams.turn('hello');
    expect(turn.status).toBe(429);
    expect(JSON.parse(await turn.rest()).error.reason).toBe('rate_limit_exceeded');
    // Another principal (the organization's API key) streams MCP progress meanwhile.
    const byKey = await streams.callSlowReport('p1');
    expect(byKey.contentType).toContain('text/event-stream');
    expect(await byKey.rest()).toContain('report ready');

    first.close();
    // Admitted again once the server has seen the stream close.
    const fourth = await vi.waitFor(
      async () => {
        const attempt = await streams.subscribe(task.id);
        if (attempt.status !== 200) throw new Error(`still refused: ${attempt.status}`);
        return attempt;
      },
      { timeout: 10_000, interval: 50 },
    );
    task.release();
    for (const stream of [second, fourth]) expect(await stream.rest()).toContain('TASK_STATE_COMPLETED');
  });

  it('answers an MCP call in one response when its principal has no stream left', async () => {
    toolHold = deferred();
    const held = await Promise.all([
      streams.callSlowReport('h1', { hold: true }),
      streams.callSlowReport('h2', { hold: true }),
    ]);
    await Promise.all(held.map((stream) => stream.until('notifications/progress')));
    const plain = await streams.callSlowReport('p3');
    expect(plain.contentType).toContain('application/json');
    expect(JSON.parse(await plain.rest()).result.content[0].text).toBe('report ready');
    toolHold.resolve();
    for (const stream of held) expect(await stream.rest()).toContain('report ready');
  });
});

describe('idle streams', () => {
  const streams = useStreamingBackend('idle-owner', { maxPerPrincipal: 10, heartbeatMs: 50, idleTimeoutMs: 1_500 });

  it('closes an A2A resubscription that stays quiet, with heartbeats until then; the task goes on', async () => {
    const { t } = streams.assistant;
    const task = await streams.heldTask();
    const text = await (await streams.subscribe(task.id)).rest();
    expect(text).toContain('TASK_STATE_WORKING');
    expect(text).toContain(': keep-alive');
    expect(text).not.toContain('TASK_STATE_COMPLETED');
    // Closing the idle stream cancelled nothing: the task completes and can be read.
    task.release();
    await vi.waitFor(async () => {
      const found = await a2aResult(t.api, A2A_PATH, 'GetTask', { id: task.id }, streams.token);
      expect(found.status.state).toBe('TASK_STATE_COMPLETED');
    });
    expect(t.backend.container.get(A2aRuntime).tasks.isRunningHere(task.id)).toBe(false);
  });

  it('closes a quiet MCP progress stream and a quiet turn, each with heartbeats until then', async () => {
    toolHold = deferred();
    const mcpText = await (await streams.callSlowReport('idle', { hold: true })).rest();
    expect(mcpText).toContain('notifications/progress');
    expect(mcpText).toContain(': keep-alive');
    expect(mcpText).not.toContain('report ready');
    toolHold.resolve();

    const modelHold = deferred();
    streams.assistant.stub.enqueue(textReply('Too late', { waitFor: modelHold.promise }));
    const turnText = await (await streams.turn('wait')).rest();
    expect(turnText).toContain('event: execution');
    expect(turnText).toContain(': keep-alive');
    expect(turnText).not.toContain('turn_completed');
    modelHold.resolve();
  });
});
