import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SAAS_SERVICE_TYPES, type TokenBudgetAdministration } from '../index.js';
import {
  A2A_AUDIENCE,
  A2A_CONCIERGE_AUDIENCE,
  A2A_CONCIERGE_PATH,
  A2A_PATH,
  a2aError,
  a2aPost,
  a2aResult,
  a2aStream,
  a2aToken,
  legacyMessage,
  machineToken,
  v1Message,
} from '../../testing/a2a.fixtures.js';
import { assistantOrganization, postStream, useAssistantBackend } from '../../testing/agents.fixtures.js';
import { addMember, createOrganization, signInAgain, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { deferred, textReply, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { delegatedToken, MCP_BACKEND_OPTIONS } from '../../testing/mcp.fixtures.js';
import { useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { A2aRuntime } from './a2a.module.js';
import type { CoordinationBackend } from '../coordination/coordination.js';
import type { OperationDispatcher } from '../resources/operation-dispatcher.service.js';
import type { RateLimitService } from '../resources/rate-limit.service.js';
import { A2A_ERRORS } from './a2a-protocol.js';
import { taskChannel } from './a2a-task.service.js';
import { A2A_SWEEP_CRON, A2A_SWEEP_QUEUE } from './a2a-jobs.js';
import { JOBS_TYPES, type JobQueueService } from '../jobs/index.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import type { ConversationStore } from '../agents/runtime/conversation.store.js';

const READ = 'resource_todos_read';
const RENAME = 'resource_todos_update';
const SKILL = { skillId: 'todo-assistant' };

describe('A2A tasks over JSON-RPC, both dialects', () => {
  const assistant = useAssistantBackend(useTestDatabase(), 'a2a-owner', MCP_BACKEND_OPTIONS);
  const { stub } = assistant;
  let t: TestBackend;
  let owner: TestUser;
  let orgId: string;
  let token: string;
  let conciergeToken: string;

  beforeAll(async () => {
    ({ t, owner, orgId } = assistant);
    token = await a2aToken(t.api, owner);
    conciergeToken = await a2aToken(t.api, owner, A2A_CONCIERGE_AUDIENCE);
  });

  const runtime = () => t.backend.container.get(A2aRuntime);
  const send = (method: string, params: Record<string, unknown>, auth = token, path = A2A_PATH) =>
    a2aResult(t.api, path, method, params, auth);

  async function createTodo(title: string): Promise<string> {
    const res = await t.api.post(`/api/v1/organizations/${orgId}/todos`).set(owner.auth).send({ title });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data._id as string;
  }

  it('answers a blocking 0.3 message/send with a completed task carrying the reply as a text artifact', async () => {
    stub.enqueue(textReply('You have three todos.'));
    const task = await send('message/send', { message: legacyMessage('How many todos?'), metadata: SKILL });
    expect(task).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(task.artifacts[0].parts).toEqual([{ kind: 'text', text: 'You have three todos.' }]);
    expect(task.id).not.toBe(task.contextId);
    const read = await send('tasks/get', { id: task.id });
    expect(read).toMatchObject({ id: task.id, contextId: task.contextId, status: { state: 'completed' } });
    // The same task read in the 1.0 dialect: TASK_STATE_* spelling, bare text parts.
    const v1 = await send('GetTask', { id: task.id });
    expect(v1.status.state).toBe('TASK_STATE_COMPLETED');
    expect(v1.artifacts[0].parts).toEqual([{ text: 'You have three todos.' }]);
    expect(v1.kind).toBeUndefined();
  });

  it('answers a 1.0 SendMessage with { task }, honours A2A-Version and continues the conversation by contextId', async () => {
    stub.enqueue(textReply('First.'), textReply('Second.'));
    const res = await a2aPost(t.api, A2A_PATH, 'SendMessage', { message: v1Message('One'), metadata: SKILL }, token);
    expect(res.headers['a2a-version']).toBe('1.0');
    const first = res.body.result.task;
    expect(first.status.state).toBe('TASK_STATE_COMPLETED');
    const second = await send('SendMessage', {
      message: v1Message('Two', { contextId: first.contextId }),
      metadata: SKILL,
    });
    expect(second.task.contextId).toBe(first.contextId);
    expect(second.task.id).not.toBe(first.id);
    // The model saw the whole conversation on the second turn.
    expect(JSON.stringify(stub.requests[1]?.body.messages)).toContain('First.');
    const wrongVersion = await a2aPost(t.api, A2A_PATH, 'SendMessage', { message: v1Message('x') }, token, {
      'A2A-Version': '0.3.0',
    });
    expect(wrongVersion.body.error.code).toBe(A2A_ERRORS.VERSION_NOT_SUPPORTED);
    const legacyOnly = await a2aPost(t.api, A2A_PATH, 'tasks/list', {}, token);
    expect(legacyOnly.body.error.code).toBe(A2A_ERRORS.METHOD_NOT_FOUND);
  });

  it('opens a non-blocking task (working) in either spelling, then completes it', async () => {
    const hold = deferred();
    stub.enqueue(textReply('Done later.', { waitFor: hold.promise }));
    const legacy = await send('message/send', {
      message: legacyMessage('Later please'),
      metadata: SKILL,
      configuration: { blocking: false },
    });
    expect(legacy).toMatchObject({ kind: 'task', status: { state: 'working' } });
    hold.resolve();
    await vi.waitFor(async () => expect((await send('tasks/get', { id: legacy.id })).status.state).toBe('completed'), {
      timeout: 10_000,
    });

    stub.enqueue(textReply('Also later.'));
    const v1 = await send('SendMessage', { message: v1Message('Later'), metadata: SKILL, return_immediately: true });
    expect(v1.task.status.state).toMatch(/^TASK_STATE_(WORKING|COMPLETED)$/);
    await vi.waitFor(async () =>
      expect((await send('GetTask', { id: v1.task.id })).status.state).toBe('TASK_STATE_COMPLETED'),
    );
  });

  it('routes by metadata.skillId: an unknown skill is refused before any model turn; one skill is implicit', async () => {
    const before = stub.requests.length;
    const unknown = await a2aError(
      t.api,
      A2A_PATH,
      'message/send',
      { message: legacyMessage('Hi'), metadata: { skillId: 'nope' } },
      token,
    );
    expect(unknown.code).toBe(A2A_ERRORS.INVALID_PARAMS);
    expect(stub.requests.length).toBe(before);
    // The concierge exposes exactly one skill: no skillId needed (positive control on the same path).
    stub.enqueue(textReply('Concierge here.'));
    const task = await send('message/send', { message: legacyMessage('Hi') }, conciergeToken, A2A_CONCIERGE_PATH);
    expect(task.status.state).toBe('completed');
    expect(task.metadata).toEqual({ skillId: 'todo-assistant' });
  });

  it('refuses a token for /mcp or for another A2A instance; accepts the endpoint’s own', async () => {
    const mcpToken = await delegatedToken(t.api, owner);
    const viaMcp = await a2aPost(t.api, A2A_PATH, 'ListTasks', {}, mcpToken);
    expect(viaMcp.status).toBe(401);
    expect(viaMcp.headers['www-authenticate']).toContain('invalid_token');
    const crossed = await a2aPost(t.api, A2A_PATH, 'ListTasks', {}, conciergeToken);
    expect(crossed.status).toBe(401);
    const own = await a2aPost(t.api, A2A_PATH, 'ListTasks', {}, token);
    expect(own.status).toBe(200);
    expect(own.body.result.tasks.length).toBeGreaterThan(0);
  });

  it('pauses for approval as input-required and resumes through the same approval gate', async () => {
    const id = await createTodo('Buy milk');
    stub.enqueue(
      toolCallsReply([{ id: 'c-read', name: READ, arguments: { id } }]),
      toolCallsReply([{ id: 'c-rename', name: RENAME, arguments: { id, title: 'Buy oat milk' } }], {
        text: 'I propose a rename.',
      }),
    );
    const paused = await send('message/send', { message: legacyMessage('Rename it'), metadata: SKILL });
    expect(paused.status.state).toBe('input-required');
    const approval = paused.status.message.parts.find((part: { kind: string }) => part.kind === 'data').data;
    expect(approval).toMatchObject({ functionRef: expect.any(String), arguments: { id, title: 'Buy oat milk' } });
    const title = async () =>
      (await t.api.get(`/api/v1/organizations/${orgId}/todos/${id}`).set(owner.auth)).body.data.title;
    expect(await title()).toBe('Buy milk');

    // A forged token on the same task is refused by the gate; nothing changes.
    const forged = await a2aError(
      t.api,
      A2A_PATH,
      'message/send',
      {
        message: legacyMessage('yes', {
          taskId: paused.id,
          contextId: paused.contextId,
          metadata: { approvalId: approval.approvalId, approvalToken: 'forged', decision: 'approve' },
        }),
      },
      token,
    );
    expect(forged.data?.reason).toBe('approval_required');
    expect(await title()).toBe('Buy milk');

    stub.enqueue(textReply('Renamed.'));
    const resumed = await send('message/send', {
      message: legacyMessage('yes', {
        taskId: paused.id,
        contextId: paused.contextId,
        parts: [
          {
            kind: 'data',
            data: { approvalId: approval.approvalId, approvalToken: approval.approvalToken, decision: 'approve' },
          },
        ],
      }),
    });
    expect(resumed).toMatchObject({ id: paused.id, status: { state: 'completed' } });
    expect(resumed.artifacts[0].parts[0].text).toBe('Renamed.');
    expect(await title()).toBe('Buy oat milk');
  });

  it('streams message/stream and SendStreamingMessage: the task first, its deltas, then the final status', async () => {
    stub.enqueue(textReply('Streaming words here'));
    const legacy = await a2aStream(
      t.api,
      A2A_PATH,
      'message/stream',
      { message: legacyMessage('s'), metadata: SKILL },
      token,
    );
    expect(legacy.frames[0]).toMatchObject({ kind: 'task', status: { state: 'working' } });
    const deltas = legacy.frames.filter((frame) => frame.kind === 'artifact-update');
    expect(deltas.map((frame) => frame.artifact.parts[0].text).join('')).toBe('Streaming words here');
    expect(legacy.frames.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });

    stub.enqueue(textReply('Again'));
    const v1 = await a2aStream(
      t.api,
      A2A_PATH,
      'SendStreamingMessage',
      { message: v1Message('s'), metadata: SKILL },
      token,
    );
    expect(v1.frames[0].task.status.state).toBe('TASK_STATE_WORKING');
    expect(v1.frames.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('resubscribes: the current state first, then the changes; closing does not cancel', async () => {
    const hold = deferred();
    stub.enqueue(textReply('Resubscribed answer', { waitFor: hold.promise }));
    const { task } = await send('SendMessage', { message: v1Message('r'), metadata: SKILL, return_immediately: true });
    await stub.waitForRequests(stub.requests.length + 1);
    // Released once the subscription is in place, so the change is one the stream must follow.
    const coordination = t.backend.container.get<CoordinationBackend>(SAAS_SERVICE_TYPES.Coordination);
    const subscribe = coordination.subscribe.bind(coordination);
    const spy = vi.spyOn(coordination, 'subscribe').mockImplementation(async (channel, handler) => {
      const unsubscribe = await subscribe(channel, handler);
      if (channel === taskChannel(task.id)) hold.resolve();
      return unsubscribe;
    });
    const { frames } = await a2aStream(t.api, A2A_PATH, 'SubscribeToTask', { id: task.id }, token);
    spy.mockRestore();
    expect(frames[0].task.id).toBe(task.id);
    expect(frames[0].task.status.state).toBe('TASK_STATE_WORKING');
    expect(runtime().tasks.isRunningHere(task.id)).toBe(false);
    expect(frames.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    // A terminal task: its state, then the stream closes.
    const again = await a2aStream(t.api, A2A_PATH, 'tasks/resubscribe', { id: task.id }, token);
    expect(again.frames).toHaveLength(1);
    expect(again.frames[0]).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(again.frames[0].artifacts[0].parts[0].text).toBe('Resubscribed answer');
  });

  it('cancels a running task: its loop stops, the state is canceled, and canceling again is refused', async () => {
    const hold = deferred();
    stub.enqueue(textReply('This answer never finishes', { holdAfterFirstDelta: hold.promise }));
    const before = stub.requests.length;
    const { task } = await send('SendMessage', { message: v1Message('c'), metadata: SKILL, return_immediately: true });
    await stub.waitForRequests(before + 1);
    const canceled = await send('CancelTask', { id: task.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await vi.waitFor(() => expect(runtime().tasks.isRunningHere(task.id)).toBe(false));
    hold.resolve();
    expect((await send('tasks/get', { id: task.id })).status.state).toBe('canceled');
    const again = await a2aError(t.api, A2A_PATH, 'tasks/cancel', { id: task.id }, token);
    expect(again.code).toBe(A2A_ERRORS.TASK_NOT_CANCELABLE);
    expect(stub.requests.length).toBe(before + 1);
  });

  it('scopes tasks to their owner: another organization’s member gets not-found everywhere and changes nothing', async () => {
    stub.enqueue(textReply('Mine.'));
    const mine = await send('message/send', { message: legacyMessage('m'), metadata: SKILL });
    const stranger = await assistantOrganization(t.api, 'a2a-stranger');
    const theirs = await a2aToken(t.api, stranger.owner);
    for (const [method, params] of [
      ['tasks/get', { id: mine.id }],
      ['GetTask', { id: mine.id }],
      ['tasks/cancel', { id: mine.id }],
      ['CancelTask', { id: mine.id }],
      [
        'tasks/pushNotificationConfig/set',
        { taskId: mine.id, pushNotificationConfig: { url: 'https://example.com/h' } },
      ],
      ['ListTaskPushNotificationConfigs', { taskId: mine.id }],
    ] as const) {
      const error = await a2aError(t.api, A2A_PATH, method, params, theirs);
      expect(error.code, method).toBe(A2A_ERRORS.TASK_NOT_FOUND);
    }
    const resubscribe = await a2aStream(t.api, A2A_PATH, 'tasks/resubscribe', { id: mine.id }, theirs);
    expect(resubscribe.body.error.code).toBe(A2A_ERRORS.TASK_NOT_FOUND);
    const streamed = await a2aStream(
      t.api,
      A2A_PATH,
      'message/stream',
      { message: legacyMessage('continue', { taskId: mine.id }), metadata: SKILL },
      theirs,
    );
    expect(streamed.body.error.code).toBe(A2A_ERRORS.TASK_NOT_FOUND);
    const listed = await send('ListTasks', {}, theirs);
    expect(listed.tasks.map((task: { id: string }) => task.id)).not.toContain(mine.id);
    // Positive control: the owner still reads it, unchanged.
    expect((await send('tasks/get', { id: mine.id })).status.state).toBe('completed');
    expect((await send('ListTasks', {})).tasks.map((task: { id: string }) => task.id)).toContain(mine.id);
  });

  it('serves an organization machine client as its own principal, scoped apart from the person', async () => {
    const machine = await machineToken(t.api, owner, orgId);
    stub.enqueue(textReply('Machine reply.'));
    const task = await send('message/send', { message: legacyMessage('m'), metadata: SKILL }, machine);
    expect(task.status.state).toBe('completed');
    expect((await send('tasks/get', { id: task.id }, machine)).id).toBe(task.id);
    expect((await a2aError(t.api, A2A_PATH, 'tasks/get', { id: task.id }, token)).code).toBe(A2A_ERRORS.TASK_NOT_FOUND);
  });

  it('refuses the next turn with budget_exhausted once the allowance is used; the running turn completed', async () => {
    const other = await assistantOrganization(t.api, 'a2a-budget');
    await t.backend.container
      .get<TokenBudgetAdministration>(SAAS_SERVICE_TYPES.TokenBudgetService)
      .assignPlan({ kind: 'organization', organizationId: other.orgId }, 'todos.team');
    const budgetToken = await a2aToken(t.api, other.owner);
    stub.enqueue(textReply('Expensive.', { usage: { inputTokens: 100_000, outputTokens: 10 } }));
    const ran = await send('message/send', { message: legacyMessage('x'), metadata: SKILL }, budgetToken);
    expect(ran.status.state).toBe('completed');
    const before = stub.requests.length;
    const refused = await a2aPost(
      t.api,
      A2A_PATH,
      'message/send',
      { message: legacyMessage('y'), metadata: SKILL },
      budgetToken,
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error.data).toEqual({ reason: 'budget_exhausted' });
    expect(stub.requests.length).toBe(before);
  });

  it('needs a person to name the organization when they belong to several', async () => {
    const person = await signUp(t.api, 'a2a-two-orgs');
    const first = await createOrganization(t.api, person, 'One');
    await createOrganization(t.api, person, 'Two');
    const personToken = await a2aToken(t.api, person);
    const unnamed = await a2aPost(
      t.api,
      A2A_PATH,
      'message/send',
      { message: legacyMessage('x'), metadata: SKILL },
      personToken,
    );
    expect(unnamed.body.error).toMatchObject({ code: A2A_ERRORS.INVALID_REQUEST });
    expect(unnamed.body.result).toBeUndefined();
    stub.enqueue(textReply('Org one.'));
    const named = await send(
      'message/send',
      { message: legacyMessage('x'), metadata: { ...SKILL, organizationId: first } },
      personToken,
    );
    expect(named.status.state).toBe('completed');
  });

  it('sweeps an abandoned task only when its lease can be taken; an unreadable lease store is no proof', async () => {
    const { store, tasks } = runtime();
    const task = await store.create({
      contextId: 'ctx-abandoned',
      audience: A2A_AUDIENCE,
      skillId: 'todo-assistant',
      ownerKey: `user:${owner.userId}`,
      organizationId: orgId,
    });
    await store.noteLease(task.id);
    const later = new Date(Date.now() + 10 * 60_000);
    const coordination = t.backend.container.get<CoordinationBackend>(SAAS_SERVICE_TYPES.Coordination);
    const unreadable = vi.spyOn(coordination, 'acquireLease').mockRejectedValue(new Error('lease store down'));
    expect(await tasks.sweepAbandoned(later)).toEqual([]);
    unreadable.mockRestore();
    expect((await store.byId(task.id))?.state).toBe('working');
    // A live holder keeps it too.
    const held = await coordination.acquireLease(`a2a-task:${task.id}`, 60_000);
    expect(await tasks.sweepAbandoned(later)).toEqual([]);
    await held?.release();
    expect(await tasks.sweepAbandoned(later)).toEqual([task.id]);
    expect((await store.byId(task.id))?.state).toBe('failed');
  });

  it('sweeps on a job-queue schedule (one run per tick across replicas), keeping the unreadable-store rule', async () => {
    const { store, jobs: a2aJobs } = runtime();
    await a2aJobs.start();
    const jobs = t.backend.container.get<JobQueueService>(JOBS_TYPES.JobQueueService);
    expect(await jobs.listSchedules()).toContainEqual({
      queue: A2A_SWEEP_QUEUE,
      cron: A2A_SWEEP_CRON,
      timezone: 'UTC',
    });
    const task = await store.create({
      contextId: 'ctx-abandoned-scheduled',
      audience: A2A_AUDIENCE,
      skillId: 'todo-assistant',
      ownerKey: `user:${owner.userId}`,
      organizationId: orgId,
    });
    await store.noteLease(task.id);
    // Its runner last touched it an hour ago: stale for the sweep that the schedule's next tick enqueues.
    const database = t.backend.container.get<SqlDatabase>(SAAS_SERVICE_TYPES.Database);
    await database.query(`UPDATE wildo_a2a_tasks SET updated_at = now() - interval '1 hour' WHERE id = $1`, [task.id]);
    /** Enqueues what the schedule enqueues at a tick and waits for the queue's worker to finish it. */
    const tick = async () => {
      const id = (await jobs.enqueue(A2A_SWEEP_QUEUE, {})) ?? '';
      await vi.waitFor(async () => expect((await jobs.getJob(A2A_SWEEP_QUEUE, id))?.state).toBe('completed'), {
        timeout: 10_000,
        interval: 50,
      });
    };
    const coordination = t.backend.container.get<CoordinationBackend>(SAAS_SERVICE_TYPES.Coordination);
    const unreadable = vi.spyOn(coordination, 'acquireLease').mockRejectedValue(new Error('lease store down'));
    await tick();
    unreadable.mockRestore();
    expect((await store.byId(task.id))?.state).toBe('working');
    // Positive control: with the lease store readable and the lease free, the next run fails the task.
    await tick();
    expect((await store.byId(task.id))?.state).toBe('failed');
  });

  it('falls back to a blocking reply when the task cannot be stored (a message, never a task id)', async () => {
    const { store } = runtime();
    const failing = vi.spyOn(store, 'create').mockRejectedValue(new Error('disk full'));
    stub.enqueue(textReply('Answered anyway.'));
    const reply = await send('message/send', {
      message: legacyMessage('x'),
      metadata: SKILL,
      configuration: { blocking: false },
    });
    failing.mockRestore();
    expect(reply).toMatchObject({
      kind: 'message',
      role: 'agent',
      parts: [{ kind: 'text', text: 'Answered anyway.' }],
    });
    expect(reply.taskId).toBeUndefined();
    // Positive control: with the store back, the same send opens a task.
    stub.enqueue(textReply('A task again.'));
    const task = await send('message/send', { message: legacyMessage('x'), metadata: SKILL });
    expect(task.kind).toBe('task');
  });

  it('stores a blocking send’s task with the turn’s last write (no statement of its own), repaired as its text is', async () => {
    const database = t.backend.container.get<SqlDatabase>(SAAS_SERVICE_TYPES.Database);
    const statements = vi.spyOn(database, 'query');
    // A NUL the database refuses in text: repaired, it costs neither the task nor the conversation's last write.
    stub.enqueue(textReply('Stored\u0000 with the turn.'));
    const task = await send('message/send', { message: legacyMessage('Store it'), metadata: SKILL });
    const texts = statements.mock.calls.map(([text]) => text);
    statements.mockRestore();
    expect(task.status.state).toBe('completed');
    expect(task.artifacts[0].parts[0].text).toBe('Stored with the turn.');
    const taskWrites = texts.filter((text) => text.includes('INTO wildo_a2a_tasks'));
    expect(taskWrites).toHaveLength(1);
    expect(taskWrites[0]).toContain('INSERT INTO wildo_agent_messages');
    // Addressable as replied, and the conversation goes on from the stored turn.
    expect(await send('tasks/get', { id: task.id })).toEqual(task);
    stub.enqueue(textReply('Next turn.'));
    const next = await send('message/send', {
      message: legacyMessage('Again', { contextId: task.contextId }),
      metadata: SKILL,
    });
    expect(next.status.state).toBe('completed');
    expect(JSON.stringify(stub.requests.at(-1)?.body.messages)).toContain('Stored with the turn.');
  });

  it('stores a blocking send as failed, and nothing else, when the turn’s last write fails', async () => {
    const conversations = t.backend.container.get<ConversationStore>(SAAS_SERVICE_TYPES.ConversationStore);
    const failing = vi.spyOn(conversations, 'append').mockRejectedValue(new Error('disk full'));
    stub.enqueue(textReply('Never saved.'));
    const task = await send('message/send', { message: legacyMessage('Lose it'), metadata: SKILL });
    failing.mockRestore();
    expect(task.status.state).toBe('failed');
    const listed = await send('ListTasks', { contextId: task.contextId });
    expect(listed.tasks.map((found: { id: string }) => found.id)).toEqual([task.id]);
    expect(listed.tasks[0].status.state).toBe('TASK_STATE_FAILED');
  });

  it('answers a page token it never issued as invalid params (never a database error); its own tokens page on', async () => {
    for (const pageToken of ['99999999999999999999', '-1', '1e3', '12abc', ' 5']) {
      const res = await a2aPost(t.api, A2A_PATH, 'ListTasks', { pageToken }, token);
      expect(res.status, pageToken).toBe(200);
      expect(res.body.error, pageToken).toMatchObject({
        code: A2A_ERRORS.INVALID_PARAMS,
        message: 'Invalid params: pageToken is not one this server issued.',
      });
    }
    const first = await send('ListTasks', { pageSize: 1 });
    expect(first.nextPageToken).toMatch(/^\d+$/);
    const next = await send('ListTasks', { pageSize: 1, pageToken: first.nextPageToken });
    expect(next.tasks[0].id).not.toBe(first.tasks[0].id);
  });

  it('repeats nothing of an A2A-Version it does not serve; a served one is answered', async () => {
    const asked = '9.9<script>probe-value-0123456789';
    const res = await a2aPost(t.api, A2A_PATH, 'GetTask', { id: 'x' }, token, { 'A2A-Version': asked });
    expect(res.body.error.code).toBe(A2A_ERRORS.VERSION_NOT_SUPPORTED);
    expect(JSON.stringify(res.body)).not.toMatch(/9\.9|script|probe/);
    const served = await a2aPost(t.api, A2A_PATH, 'GetTask', { id: 'x' }, token, { 'A2A-Version': '1.0' });
    expect(served.body.error.code).toBe(A2A_ERRORS.TASK_NOT_FOUND);
  });

  it('charges the blanket per-owner throttle and the A2A surface bucket on verified identity', async () => {
    const rateLimits = t.backend.container.get<RateLimitService>(SAAS_SERVICE_TYPES.RateLimitService);
    const charged = vi.spyOn(rateLimits, 'chargeBurst');
    await send('ListTasks', {});
    const keys = charged.mock.calls.map(([key]) => key);
    charged.mockRestore();
    expect(keys).toEqual(expect.arrayContaining([`user:${owner.userId}`, `a2a:user:${owner.userId}`]));
  });

  it('charges the tools an A2A turn calls to the A2A surface’s rate bucket; a browser turn’s to the tool bucket', async () => {
    const id = await createTodo('Rate me');
    // The surface a dispatch carries names its rate bucket (`op:<surface>:<operation>:<principal>`).
    const dispatcher = t.backend.container.get<OperationDispatcher>(SAAS_SERVICE_TYPES.OperationDispatcher);
    const charged = vi.spyOn(dispatcher, 'dispatch');
    const readsBy = () =>
      charged.mock.calls.filter(([request]) => request.id === id).map(([request]) => request.surface);
    stub.enqueue(toolCallsReply([{ id: 'c-read-a2a', name: READ, arguments: { id } }]), textReply('Read it.'));
    const task = await send('message/send', { message: legacyMessage('Read it'), metadata: SKILL });
    expect(task.status.state).toBe('completed');
    const a2aCharges = readsBy();
    // Positive control: the same tool in the browser's turn is charged to the `tool` bucket, not A2A's.
    charged.mockClear();
    stub.enqueue(toolCallsReply([{ id: 'c-read-rest', name: READ, arguments: { id } }]), textReply('Read it.'));
    const rest = await postStream(
      t.api,
      `/api/v1/organizations/${orgId}/flows-actors/systems/todo-assistant/turns`,
      owner.auth,
      {
        message: 'Read it',
      },
    );
    const restCharges = readsBy();
    charged.mockRestore();
    expect(rest.status).toBe(200);
    expect(a2aCharges).toEqual(['a2a']);
    expect(restCharges).toEqual(['tool']);
  });

  it('stops showing a person the tasks they ran in an organization they have left', async () => {
    const member = await signUp(t.api, 'a2a-leaver');
    await addMember(t.api, owner, orgId, member, 'ORG_MEMBER');
    const before = await a2aToken(t.api, member);
    stub.enqueue(textReply('Member task.'));
    const task = await send(
      'message/send',
      { message: legacyMessage('x'), metadata: { ...SKILL, organizationId: orgId } },
      before,
    );
    expect((await send('tasks/get', { id: task.id }, before)).id).toBe(task.id);
    const removed = await t.api.delete(`/api/v1/organizations/${orgId}/members/${member.userId}`).set(owner.auth);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const after = await a2aToken(t.api, await signInAgain(t.api, member));
    expect((await a2aError(t.api, A2A_PATH, 'tasks/get', { id: task.id }, after)).code).toBe(A2A_ERRORS.TASK_NOT_FOUND);
    expect((await send('ListTasks', {}, after)).tasks).toEqual([]);
  });
});
