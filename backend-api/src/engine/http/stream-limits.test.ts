import { beforeAll, describe, expect, it, vi } from 'vitest';
import { A2A_PATH, a2aResult, a2aToken, v1Message } from '../../testing/a2a.fixtures.js';
import { useAssistantBackend } from '../../testing/agents.fixtures.js';
import { deferred, textReply, type Deferred } from '../../testing/llm-stubs/index.js';
import { MCP_BACKEND_OPTIONS, MCP_PATH, organizationApiKey, rpc } from '../../testing/mcp.fixtures.js';
import { useTestDatabase } from '../../testing/test-backend.js';
import { defineBackendApplication } from '../container/backend-domain-module.js';
import type { McpCustomTool } from '../mcp/mcp-tools.types.js';
import { referenceApplication } from '../../modules/index.js';
import { A2aRuntime } from '../a2a/a2a.module.js';

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
const a2aHeaders = (token: string) => ({ authorization: token, 'a2a-version': '1.0', accept: 'text/event-stream' });

describe('open streams per principal', () => {
  const assistant = useAssistantBackend(database, 'streams-owner', {
    ...MCP_BACKEND_OPTIONS,
    application,
    http: { streams: { maxPerPrincipal: 2, heartbeatMs: 60_000, idleTimeoutMs: 120_000 } },
  });
  let base: string;
  let token: string;
  beforeAll(async () => {
    base = (await assistant.t.backend.listen(0)).url;
    token = await a2aToken(assistant.t.api, assistant.owner);
  });

  it('refuses a principal’s stream past the limit on every surface, and admits one again when a stream closes', async () => {
    const { t, stub, owner, turns, orgId } = assistant;
    const modelHold = deferred();
    stub.enqueue(textReply('Held answer', { waitFor: modelHold.promise }));
    const { task } = await a2aResult(
      t.api,
      A2A_PATH,
      'SendMessage',
      {
        message: v1Message('hold on'),
        metadata: SKILL,
        return_immediately: true,
      },
      token,
    );
    const subscribe = () => hold(`${base}${A2A_PATH}`, a2aHeaders(token), a2aBody('SubscribeToTask', { id: task.id }));
    const first = await subscribe();
    const second = await subscribe();
    expect([first.status, second.status]).toEqual([200, 200]);
    await first.until('TASK_STATE_WORKING');

    const third = await subscribe();
    expect(third.status).toBe(429);
    expect(JSON.parse(await third.rest()).error.message).toBe(
      'At most 2 streams may be open at once; close one first.',
    );
    // A turn of the same person is refused before it starts, as an ordinary HTTP answer.
    const turn = await fetch(`${base}${turns}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: owner.auth.Authorization },
      body: JSON.stringify({ message: 'hello' }),
    });
    expect(turn.status).toBe(429);
    expect(((await turn.json()) as { error: { reason: string } }).error.reason).toBe('rate_limit_exceeded');
    // Another principal (the organization's API key) streams MCP progress meanwhile.
    const key = await organizationApiKey(t.api, owner, orgId);
    const mcpHeaders = {
      authorization: key,
      'mcp-protocol-version': '2025-11-25',
      accept: 'application/json, text/event-stream',
    };
    const progress = rpc('tools/call', { name: 'slow_report', arguments: {}, _meta: { progressToken: 'p1' } });
    const byKey = await hold(`${base}${MCP_PATH}`, mcpHeaders, progress);
    expect(byKey.contentType).toContain('text/event-stream');
    expect(await byKey.rest()).toContain('report ready');

    first.close();
    // Admitted again once the server has seen the stream close.
    const fourth = await vi.waitFor(
      async () => {
        const attempt = await subscribe();
        if (attempt.status !== 200) throw new Error(`still refused: ${attempt.status}`);
        return attempt;
      },
      { timeout: 10_000, interval: 50 },
    );
    modelHold.resolve();
    for (const stream of [second, fourth]) expect(await stream.rest()).toContain('TASK_STATE_COMPLETED');
  });

  it('answers an MCP call in one response when its principal has no stream left', async () => {
    const { t, stub, owner, orgId } = assistant;
    const key = await organizationApiKey(t.api, owner, orgId);
    const mcpHeaders = {
      authorization: key,
      'mcp-protocol-version': '2025-11-25',
      accept: 'application/json, text/event-stream',
    };
    toolHold = deferred();
    const held = [1, 2].map((n) =>
      hold(
        `${base}${MCP_PATH}`,
        mcpHeaders,
        rpc('tools/call', { name: 'slow_report', arguments: { hold: true }, _meta: { progressToken: `h${n}` } }),
      ),
    );
    const streams = await Promise.all(held);
    await Promise.all(streams.map((stream) => stream.until('notifications/progress')));
    const plain = await hold(
      `${base}${MCP_PATH}`,
      mcpHeaders,
      rpc('tools/call', { name: 'slow_report', arguments: {}, _meta: { progressToken: 'p3' } }),
    );
    expect(plain.contentType).toContain('application/json');
    expect(JSON.parse(await plain.rest()).result.content[0].text).toBe('report ready');
    toolHold.resolve();
    for (const stream of streams) expect(await stream.rest()).toContain('report ready');
    expect(stub.pending).toBe(0);
  });
});

describe('idle streams', () => {
  const assistant = useAssistantBackend(database, 'idle-owner', {
    ...MCP_BACKEND_OPTIONS,
    application,
    http: { streams: { maxPerPrincipal: 10, heartbeatMs: 50, idleTimeoutMs: 1_500 } },
  });
  let base: string;
  let token: string;
  beforeAll(async () => {
    base = (await assistant.t.backend.listen(0)).url;
    token = await a2aToken(assistant.t.api, assistant.owner);
  });

  it('closes an A2A resubscription that stays quiet, with heartbeats until then; the task goes on', async () => {
    const { t, stub } = assistant;
    const modelHold = deferred();
    stub.enqueue(textReply('Late answer', { waitFor: modelHold.promise }));
    const { task } = await a2aResult(
      t.api,
      A2A_PATH,
      'SendMessage',
      {
        message: v1Message('paused'),
        metadata: SKILL,
        return_immediately: true,
      },
      token,
    );
    const stream = await hold(`${base}${A2A_PATH}`, a2aHeaders(token), a2aBody('SubscribeToTask', { id: task.id }));
    const text = await stream.rest();
    expect(text).toContain('TASK_STATE_WORKING');
    expect(text).toContain(': keep-alive');
    expect(text).not.toContain('TASK_STATE_COMPLETED');
    // Closing the idle stream cancelled nothing: the task completes and can be read.
    modelHold.resolve();
    await vi.waitFor(async () => {
      const found = await a2aResult(t.api, A2A_PATH, 'GetTask', { id: task.id }, token);
      expect(found.status.state).toBe('TASK_STATE_COMPLETED');
    });
    expect(t.backend.container.get(A2aRuntime).tasks.isRunningHere(task.id)).toBe(false);
  });

  it('closes a quiet MCP progress stream and a quiet turn, each with heartbeats until then', async () => {
    const { t, stub, owner, orgId, turns } = assistant;
    const key = await organizationApiKey(t.api, owner, orgId);
    toolHold = deferred();
    const mcp = await hold(
      `${base}${MCP_PATH}`,
      { authorization: key, 'mcp-protocol-version': '2025-11-25', accept: 'application/json, text/event-stream' },
      rpc('tools/call', { name: 'slow_report', arguments: { hold: true }, _meta: { progressToken: 'idle' } }),
    );
    const mcpText = await mcp.rest();
    expect(mcpText).toContain('notifications/progress');
    expect(mcpText).toContain(': keep-alive');
    expect(mcpText).not.toContain('report ready');
    toolHold.resolve();

    const modelHold = deferred();
    stub.enqueue(textReply('Too late', { waitFor: modelHold.promise }));
    const turn = await hold(`${base}${turns}`, { authorization: owner.auth.Authorization }, { message: 'wait' });
    const turnText = await turn.rest();
    expect(turnText).toContain('event: execution');
    expect(turnText).toContain(': keep-alive');
    expect(turnText).not.toContain('turn_completed');
    modelHold.resolve();
  });
});
