import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { A2AClient } from 'a2a-sdk-legacy/client';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { a2aToken, machineToken, A2A_CONCIERGE_AUDIENCE } from '../../testing/a2a.fixtures.js';
import { useAssistantBackend } from '../../testing/agents.fixtures.js';
import { deferred, textReply } from '../../testing/llm-stubs/index.js';
import { MCP_BACKEND_OPTIONS } from '../../testing/mcp.fixtures.js';
import { useTestDatabase } from '../../testing/test-backend.js';

/** The public URL the backend names in its cards; the peers' fetch sends it to the listening server instead. */
const PUBLIC = 'http://localhost:4241';

type Fetch = typeof fetch;

/** A peer's fetch: the request goes to the listening server, with the peer's credential. */
function peerFetch(listening: string, authorization: string): Fetch {
  return (input, init) => {
    const url = String(input instanceof Request ? input.url : input).replace(PUBLIC, listening);
    const headers = new Headers(init?.headers);
    headers.set('authorization', authorization);
    return fetch(url, { ...init, headers });
  };
}

/** The 1.0 SDK client (A2A-Version: 1.0) discovering the card under `base`. */
async function v1Client(listening: string, authorization: string, base = `${PUBLIC}/api/v1/a2a/`): Promise<Client> {
  const fetchImpl = peerFetch(listening, authorization);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(base);
}

function v1Text(text: string, metadata: Record<string, unknown> = { skillId: 'todo-assistant' }): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

const sendParams = (message: Message) => ({ tenant: '', message, configuration: undefined, metadata: undefined });

/** A 1.0 non-blocking send (`returnImmediately`): the task as it is when the call answers. */
async function sendNonBlocking(client: Client, text: string): Promise<Task> {
  const configuration = {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    historyLength: undefined,
    returnImmediately: true,
  };
  return (await client.sendMessage({ ...sendParams(v1Text(text)), configuration })) as Task;
}

/** Waits until the task reads back completed (a busy machine may take seconds to finish the turn). */
async function untilCompleted(client: Client, id: string): Promise<void> {
  await vi.waitFor(
    async () =>
      expect((await client.getTask({ tenant: '', id, historyLength: undefined })).status?.state).toBe(
        TaskState.TASK_STATE_COMPLETED,
      ),
    { timeout: 10_000 },
  );
}

/** The case of a 1.0 stream event (`task`, `statusUpdate`, `artifactUpdate`, `message`) and its value. */
function streamed(event: unknown): { $case: string; value: unknown } {
  return (event as { payload: { $case: string; value: unknown } }).payload;
}

function artifactText(task: Task): string {
  const content = task.artifacts[0]?.parts[0]?.content;
  return content?.$case === 'text' ? content.value : '';
}

describe('A2A with the official SDK clients as peers', () => {
  const assistant = useAssistantBackend(useTestDatabase(), 'sdk-owner', MCP_BACKEND_OPTIONS);
  const { stub } = assistant;
  let listening: string;
  let delegated: string;

  beforeAll(async () => {
    ({ url: listening } = await assistant.t.backend.listen(0));
    delegated = await a2aToken(assistant.t.api, assistant.owner);
  });

  it('@a2a-js/sdk 1.3 (A2A 1.0): discovery, blocking and non-blocking send, get, list, stream', async () => {
    const client = await v1Client(listening, delegated);
    expect(client.protocolVersion).toBe('1.0');
    stub.enqueue(textReply('Blocking answer'));
    const blocking = (await client.sendMessage(sendParams(v1Text('hello')))) as Task;
    expect(blocking.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(blocking)).toBe('Blocking answer');

    const hold = deferred();
    stub.enqueue(textReply('Later answer', { waitFor: hold.promise }));
    const polling = await v1Client(listening, delegated);
    const opened = await sendNonBlocking(polling, 'later');
    expect(opened.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    hold.resolve();
    await untilCompleted(client, opened.id);
    const listed = await client.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: undefined,
      pageToken: '',
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: undefined,
    });
    expect(listed.tasks.map((task) => task.id)).toEqual(expect.arrayContaining([blocking.id, opened.id]));

    stub.enqueue(textReply('Streamed answer'));
    const cases: string[] = [];
    for await (const event of client.sendMessageStream(sendParams(v1Text('stream')))) cases.push(streamed(event).$case);
    expect(cases[0]).toBe('task');
    expect(cases).toContain('artifactUpdate');
    expect(cases.at(-1)).toBe('statusUpdate');
  });

  it('@a2a-js/sdk 1.3: cancel, resubscribe (closing it does not cancel) and push configs without secrets', async () => {
    const client = await v1Client(listening, delegated);
    const hold = deferred();
    stub.enqueue(textReply('Held answer', { waitFor: hold.promise }));
    const before = stub.requests.length;
    const opened = await sendNonBlocking(client, 'resubscribe');
    await stub.waitForRequests(before + 1);
    const abort = new AbortController();
    for await (const event of client.resubscribeTask({ tenant: '', id: opened.id }, { signal: abort.signal })) {
      expect(streamed(event)).toMatchObject({ $case: 'task', value: { id: opened.id } });
      abort.abort();
      break;
    }
    hold.resolve();
    await untilCompleted(client, opened.id);

    const config = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: 'hook-1',
      taskId: opened.id,
      url: 'https://receiver.example/hook',
      token: 'notification-token',
      authentication: { scheme: 'Bearer', credentials: 'callback-secret' },
    });
    expect(config).toMatchObject({ id: 'hook-1', taskId: opened.id, url: 'https://receiver.example/hook' });
    expect(JSON.stringify(config)).not.toMatch(/callback-secret|notification-token/);
    const listed = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId: opened.id,
      pageSize: 0,
      pageToken: '',
    });
    expect(listed.configs.map((c) => c.id)).toEqual(['hook-1']);
    expect(JSON.stringify(listed)).not.toContain('callback-secret');
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: opened.id, id: 'hook-1' });
    await expect(
      client.getTaskPushNotificationConfig({ tenant: '', taskId: opened.id, id: 'hook-1' }),
    ).rejects.toThrow();

    const cancelHold = deferred();
    stub.enqueue(textReply('Never finished', { holdAfterFirstDelta: cancelHold.promise }));
    const running = await sendNonBlocking(client, 'cancel me');
    const canceled = await client.cancelTask({ tenant: '', id: running.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    cancelHold.resolve();
  });

  it('@a2a-js/sdk 0.3 (the earlier dialect): card, blocking and non-blocking send, get, stream, cancel, push', async () => {
    const client = await A2AClient.fromCardUrl(`${PUBLIC}/api/v1/a2a/concierge/.well-known/agent-card.json`, {
      fetchImpl: peerFetch(listening, await a2aToken(assistant.t.api, assistant.owner, A2A_CONCIERGE_AUDIENCE)),
    });
    const message = (text: string) => ({
      kind: 'message' as const,
      role: 'user' as const,
      messageId: randomUUID(),
      parts: [{ kind: 'text' as const, text }],
    });
    stub.enqueue(textReply('Legacy answer'));
    const sent = await client.sendMessage({ message: message('hi') });
    if (!('result' in sent)) throw new Error(JSON.stringify(sent));
    const task = sent.result as { kind: string; id: string; status: { state: string }; artifacts: any[] };
    expect(task).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(task.artifacts[0].parts[0].text).toBe('Legacy answer');
    const read = await client.getTask({ id: task.id });
    expect('result' in read && read.result.status.state).toBe('completed');

    const hold = deferred();
    stub.enqueue(textReply('Async legacy', { waitFor: hold.promise }));
    const opened = await client.sendMessage({ message: message('later'), configuration: { blocking: false } });
    if (!('result' in opened) || opened.result.kind !== 'task') throw new Error(JSON.stringify(opened));
    expect(opened.result.status.state).toBe('working');
    const openedId = opened.result.id;
    const pushSet = await client.setTaskPushNotificationConfig({
      taskId: opened.result.id,
      pushNotificationConfig: { id: 'legacy-hook', url: 'https://receiver.example/legacy', token: 'tok-secret' },
    });
    expect('result' in pushSet && pushSet.result.pushNotificationConfig.id).toBe('legacy-hook');
    expect(JSON.stringify(pushSet)).not.toContain('tok-secret');
    // Reattached while it runs: the task first, then its changes to the end.
    const followed: string[] = [];
    for await (const event of client.resubscribeTask({ id: openedId })) {
      followed.push(event.kind === 'status-update' ? `status:${event.status.state}` : event.kind);
      if (followed.length === 1) hold.resolve();
    }
    expect(followed[0]).toBe('task');
    expect(followed.at(-1)).toBe('status:completed');

    stub.enqueue(textReply('Streamed legacy'));
    const kinds: string[] = [];
    for await (const event of client.sendMessageStream({ message: message('stream') })) kinds.push(event.kind);
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-1)).toBe('status-update');

    const cancelHold = deferred();
    stub.enqueue(textReply('Cut short', { holdAfterFirstDelta: cancelHold.promise }));
    const running = await client.sendMessage({ message: message('cancel'), configuration: { blocking: false } });
    if (!('result' in running) || running.result.kind !== 'task') throw new Error(JSON.stringify(running));
    const canceled = await client.cancelTask({ id: running.result.id });
    expect('result' in canceled && canceled.result.status.state).toBe('canceled');
    cancelHold.resolve();
    await vi.waitFor(
      async () => {
        const done = await client.getTask({ id: openedId });
        expect('result' in done && done.result.status.state).toBe('completed');
      },
      { timeout: 10_000 },
    );
  });

  it('serves a machine client (client_credentials) through both SDKs', async () => {
    const token = await machineToken(assistant.t.api, assistant.owner, assistant.orgId);
    const client = await v1Client(listening, token);
    stub.enqueue(textReply('Machine answer'));
    const task = (await client.sendMessage(sendParams(v1Text('machine')))) as Task;
    expect(artifactText(task)).toBe('Machine answer');

    const conciergeMachine = await machineToken(
      assistant.t.api,
      assistant.owner,
      assistant.orgId,
      A2A_CONCIERGE_AUDIENCE,
    );
    const legacy = await A2AClient.fromCardUrl(`${PUBLIC}/api/v1/a2a/concierge/.well-known/agent-card.json`, {
      fetchImpl: peerFetch(listening, conciergeMachine),
    });
    stub.enqueue(textReply('Legacy machine answer'));
    const sent = await legacy.sendMessage({
      message: { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text: 'machine' }] },
    });
    expect('result' in sent && sent.result.kind === 'task' && sent.result.status.state).toBe('completed');
  });
});
