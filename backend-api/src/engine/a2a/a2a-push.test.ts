import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  A2A_AUDIENCE,
  A2A_PATH,
  a2aError,
  a2aPost,
  a2aResult,
  a2aToken,
  legacyMessage,
} from '../../testing/a2a.fixtures.js';
import { useAssistantBackend } from '../../testing/agents.fixtures.js';
import { deferred, textReply } from '../../testing/llm-stubs/index.js';
import { MCP_BACKEND_OPTIONS } from '../../testing/mcp.fixtures.js';
import { useTestDatabase } from '../../testing/test-backend.js';
import { systemClock } from '../container/clock.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { CoordinationBackend } from '../coordination/coordination.js';
import { jobsSchemaFor } from '../jobs/pg-boss-database.js';
import type { SqlDatabase, SqlExecutor } from '../persistence/sql-database.js';
import type { WildoBackendOptions } from '../bootstrap/wildo-backend.js';
import { createSilentLogger } from '../logging/index.js';
import { OutboundTargetGuard } from '../net/index.js';
import { A2aRuntime } from './a2a.module.js';
import { A2A_ERRORS } from './a2a-protocol.js';
import { A2A_PUSH_QUEUE } from './a2a-jobs.js';
import { A2aPushService, type A2aPushDelivery } from './a2a-push.service.js';

/** One request a receiver got. */
interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/** A local receiver: `/ok` records and answers 204, `/redirect` points at `/ok`, `/fail` answers 503. */
async function startReceiver(): Promise<{ server: Server; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined });
      if (req.url === '/redirect') res.writeHead(302, { location: '/ok' }).end();
      else if (req.url === '/fail') res.writeHead(503).end();
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, received };
}

describe('A2A push notifications', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const options: Partial<WildoBackendOptions> = {
    ...MCP_BACKEND_OPTIONS,
    // Deliveries are enqueued in the change's transaction (no wake-up): idle workers find them at their next poll.
    jobs: { pollingIntervalSeconds: 0.5 },
  };
  // Runs before the backend is built: the receiver's port is the test-only allowlist of the callback guard.
  beforeAll(async () => {
    receiver = await startReceiver();
    options.a2a = {
      pushGuard: {
        mode: 'development',
        developmentTargets: [{ host: '127.0.0.1', port: receiver.port }],
        allowHttpForDevelopmentTargets: true,
      },
      // The queue's smallest delay (whole seconds, doubled with jitter): the give-up test takes about 3 to 6 s.
      pushRetry: { attempts: 3, baseDelaySeconds: 1 },
      // Short leases, so a held turn shows its refreshes.
      tasks: { leaseTtlMs: 150 },
      maxPushConfigsPerTask: 3,
    };
  });
  afterAll(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));
  const assistant = useAssistantBackend(useTestDatabase(), 'push-owner', options);
  const { stub } = assistant;
  let token: string;
  beforeAll(async () => {
    token = await a2aToken(assistant.t.api, assistant.owner);
  });

  const runtime = () => assistant.t.backend.container.get(A2aRuntime);
  const database = () => assistant.t.backend.container.get<SqlDatabase>(SAAS_SERVICE_TYPES.Database);
  let jobsSchema: string | undefined;
  /** The task's delivery jobs in the queue (any state); inside a transaction, pass it (PGlite has one connection). */
  async function jobsFor(taskId: string, db: SqlExecutor = database()): Promise<number> {
    const schema = (jobsSchema ??= await jobsSchemaFor(database()));
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${schema}.job WHERE name = $1 AND data->>'taskId' = $2`,
      [A2A_PUSH_QUEUE, taskId],
    );
    return Number(rows[0]?.n);
  }
  /** The task's recorded attempts once there are `count` of them (the queue's runs are awaited, not slept on). */
  async function attempts(taskId: string, count: number): Promise<A2aPushDelivery[]> {
    await vi.waitFor(
      async () => expect((await runtime().push.deliveries(taskId)).length).toBeGreaterThanOrEqual(count),
      {
        timeout: 15_000,
        interval: 50,
      },
    );
    return runtime().push.deliveries(taskId);
  }
  const hook = (path: string) => `http://127.0.0.1:${receiver.port}${path}`;
  const send = (method: string, params: Record<string, unknown>) =>
    a2aResult(assistant.t.api, A2A_PATH, method, params, token);

  /** A non-blocking task held until `release()`; its push config registered while it runs. */
  async function heldTask(path: string): Promise<{ id: string; release: () => Promise<void> }> {
    const hold = deferred();
    stub.enqueue(textReply('The secret reply text', { waitFor: hold.promise }));
    const task = await send('message/send', {
      message: legacyMessage('push me'),
      metadata: { skillId: 'todo-assistant' },
      configuration: { blocking: false },
    });
    const config = await send('tasks/pushNotificationConfig/set', {
      taskId: task.id,
      pushNotificationConfig: {
        url: hook(path),
        token: 'notification-token',
        authentication: { schemes: ['Bearer'], credentials: 'callback-secret' },
      },
    });
    expect(JSON.stringify(config)).not.toMatch(/callback-secret|notification-token/);
    return {
      id: task.id,
      release: async () => {
        hold.resolve();
        // A busy machine may take seconds to finish the turn; the wait ends as soon as it has.
        await vi.waitFor(() => expect(runtime().tasks.isRunningHere(task.id)).toBe(false), { timeout: 10_000 });
      },
    };
  }

  it('delivers the completion as a lower-case status event with the callback credential, never the reply', async () => {
    const task = await heldTask('/ok');
    await task.release();
    await attempts(task.id, 1);
    const mine = receiver.received.filter((r) => r.body?.statusUpdate?.taskId === task.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.body).toEqual({
      statusUpdate: {
        taskId: task.id,
        contextId: expect.any(String),
        status: { state: 'completed', timestamp: expect.any(String) },
        final: true,
      },
    });
    expect(mine[0]?.headers.authorization).toBe('Bearer callback-secret');
    expect(mine[0]?.headers['x-a2a-notification-token']).toBe('notification-token');
    expect(JSON.stringify(mine[0]?.body)).not.toContain('secret reply');
    expect(await runtime().push.deliveries(task.id)).toMatchObject([
      { attempt: 1, outcome: 'delivered', httpStatus: 204, state: 'completed' },
    ]);
  });

  it('enqueues in the change’s transaction: a rolled-back change sends nothing, a committed one a job per callback', async () => {
    const task = await heldTask('/ok');
    await send('tasks/pushNotificationConfig/set', {
      taskId: task.id,
      pushNotificationConfig: { id: 'second', url: hook('/ok') },
    });
    expect(await jobsFor(task.id)).toBe(0);
    await expect(
      runtime().store.change(task.id, { state: 'failed', statusText: 'rolled back' }, async (tx, changed) => {
        await runtime().push.statusChanged(changed, true, tx);
        // Inside the transaction, one job per callback exists...
        expect(await jobsFor(task.id, tx)).toBe(2);
        throw new Error('the change fails after enqueueing');
      }),
    ).rejects.toThrow('the change fails after enqueueing');
    // ...and it rolled back with the change: the task still runs, and no job is left to deliver it.
    expect((await runtime().store.byId(task.id))?.state).toBe('working');
    expect(await jobsFor(task.id)).toBe(0);
    // Positive control: the turn's real completion commits both jobs and both callbacks hear it.
    await task.release();
    expect(await attempts(task.id, 2)).toMatchObject([
      { outcome: 'delivered', state: 'completed', httpStatus: 204 },
      { outcome: 'delivered', state: 'completed', httpStatus: 204 },
    ]);
    expect(await jobsFor(task.id)).toBe(2);
    expect(receiver.received.filter((r) => r.body?.statusUpdate?.taskId === task.id)).toHaveLength(2);
  });

  it('replays nothing to a callback registered after completion', async () => {
    stub.enqueue(textReply('Done.'));
    const done = await send('message/send', { message: legacyMessage('x'), metadata: { skillId: 'todo-assistant' } });
    await send('tasks/pushNotificationConfig/set', { taskId: done.id, url: hook('/ok') });
    // Nothing was enqueued for it (the registration changes no status), so nothing can run later either.
    expect(await jobsFor(done.id)).toBe(0);
    expect(receiver.received.filter((r) => r.body?.statusUpdate?.taskId === done.id)).toEqual([]);
    expect(await runtime().push.deliveries(done.id)).toEqual([]);
    // The config is there (get, list), without secrets; delete removes it.
    const listed = await send('tasks/pushNotificationConfig/list', { id: done.id });
    expect(listed).toHaveLength(1);
    const configId = listed[0].pushNotificationConfig.id;
    expect(
      (await send('tasks/pushNotificationConfig/get', { id: done.id, pushNotificationConfigId: configId })).taskId,
    ).toBe(done.id);
    await send('tasks/pushNotificationConfig/delete', { id: done.id, pushNotificationConfigId: configId });
    const gone = await a2aError(
      assistant.t.api,
      A2A_PATH,
      'tasks/pushNotificationConfig/get',
      { id: done.id, pushNotificationConfigId: configId },
      token,
    );
    expect(gone.code).toBe(A2A_ERRORS.TASK_NOT_FOUND);
  });

  it('keeps at most the configured number of callbacks per task; replacing one by its id is always allowed', async () => {
    stub.enqueue(textReply('Done.'));
    const done = await send('message/send', { message: legacyMessage('x'), metadata: { skillId: 'todo-assistant' } });
    const set = (id: string, path: string) =>
      a2aPost(
        assistant.t.api,
        A2A_PATH,
        'tasks/pushNotificationConfig/set',
        {
          taskId: done.id,
          pushNotificationConfig: { id, url: hook(path) },
        },
        token,
      );
    for (const n of [1, 2, 3]) expect((await set(`hook-${n}`, `/ok/${n}`)).body.error).toBeUndefined();
    const fourth = await set('hook-4', '/ok/4');
    expect(fourth.body.error).toMatchObject({
      code: A2A_ERRORS.INVALID_PARAMS,
      message: expect.stringContaining('at most 3 push notification callbacks'),
    });
    // Replacing an existing callback keeps the count.
    expect((await set('hook-2', '/ok/2b')).body.error).toBeUndefined();
    expect(await send('tasks/pushNotificationConfig/list', { id: done.id })).toHaveLength(3);
  });

  it('does not follow a redirect: one refused attempt, the redirect target never reached', async () => {
    const before = receiver.received.filter((r) => r.path === '/ok').length;
    const task = await heldTask('/redirect');
    await task.release();
    expect(await attempts(task.id, 1)).toMatchObject([
      { attempt: 1, outcome: 'refused', detail: 'redirect_refused', httpStatus: 302 },
    ]);
    expect(receiver.received.filter((r) => r.path === '/ok').length).toBe(before);
  });

  it('retries a failing receiver with backoff, records every attempt, then gives up', async () => {
    const task = await heldTask('/fail');
    await task.release();
    const recorded = await attempts(task.id, 3);
    expect(recorded).toMatchObject([
      { attempt: 1, outcome: 'failed', detail: 'bad_status', httpStatus: 503 },
      { attempt: 2, outcome: 'failed', detail: 'bad_status', httpStatus: 503 },
      { attempt: 3, outcome: 'gave_up', detail: 'bad_status', httpStatus: 503 },
    ]);
    // Backoff: the queue waits at least 1 s before the first retry and at least 2 s before the second.
    const at = recorded.map((attempt) => Date.parse(attempt.attemptedAt));
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(950);
    expect((at[2] ?? 0) - (at[1] ?? 0)).toBeGreaterThanOrEqual(1_950);
    // Given up: the job failed for good, and nothing more is attempted.
    const schema = await jobsSchemaFor(database());
    await vi.waitFor(
      async () => {
        const { rows } = await database().query<{ state: string }>(
          `SELECT state FROM ${schema}.job WHERE name = $1 AND data->>'taskId' = $2`,
          [A2A_PUSH_QUEUE, task.id],
        );
        expect(rows.map((row) => row.state)).toEqual(['failed']);
      },
      { timeout: 10_000 },
    );
    expect(
      receiver.received.filter((r) => r.path === '/fail' && r.body?.statusUpdate?.taskId === task.id),
    ).toHaveLength(3);
  });

  it('in production mode refuses a private literal callback at registration and again at delivery', async () => {
    stub.enqueue(textReply('Done.'));
    const task = await send('message/send', { message: legacyMessage('p'), metadata: { skillId: 'todo-assistant' } });
    const guard = new OutboundTargetGuard({ mode: 'production' });
    const production = new A2aPushService({
      db: database(),
      tasks: runtime().store,
      guard,
      clock: systemClock,
      logger: createSilentLogger(),
      jobs: runtime().jobs,
      retry: { attempts: 2, baseDelaySeconds: 1 },
      maxConfigsPerTask: 10,
    });
    const scope = {
      ownerKey: `user:${assistant.owner.userId}`,
      audience: A2A_AUDIENCE,
      organizationIds: [assistant.orgId],
    };
    await expect(production.set(scope, task.id, { url: 'https://10.0.0.7/hook' })).rejects.toThrow(
      /address_not_public/,
    );
    // Positive control: a public https callback is accepted by the same service.
    await expect(
      production.set(scope, task.id, { id: 'public', url: 'https://receiver.example/hook' }),
    ).resolves.toMatchObject({ taskId: task.id });
    await production.delete(scope, task.id, 'public');
    // Registered through the development guard, the loopback callback is refused when production delivers.
    await send('tasks/pushNotificationConfig/set', {
      taskId: task.id,
      pushNotificationConfig: { id: 'dev', url: hook('/ok') },
    });
    const stored = (await runtime().store.byId(task.id))!;
    const { rows } = await database().query<{ id: string }>(
      "SELECT id FROM wildo_a2a_push_configs WHERE task_id = $1 AND config_id = 'dev'",
      [task.id],
    );
    // The production replica's worker runs this delivery job: its guard refuses the loopback callback.
    await production.deliver({
      id: 'production-run',
      queue: A2A_PUSH_QUEUE,
      attempt: 1,
      data: { pushConfigId: rows[0]!.id, taskId: task.id, state: stored.state, payload: {} },
    });
    const outcomes = (await runtime().push.deliveries(task.id)).map((d) => `${d.outcome}:${d.detail}`);
    expect(outcomes).toEqual(['refused:scheme_not_allowed']);
    await guard.close();
  });

  it('refreshes the task’s lease while the turn runs, and lets it go when the turn ends', async () => {
    const coordination = assistant.t.backend.container.get<CoordinationBackend>(SAAS_SERVICE_TYPES.Coordination);
    const acquire = coordination.acquireLease.bind(coordination);
    let renewals = 0;
    const spy = vi.spyOn(coordination, 'acquireLease').mockImplementation(async (name, ttl) => {
      const lease = await acquire(name, ttl);
      if (!lease) return lease;
      const renew = lease.renew.bind(lease);
      return Object.assign(lease, {
        renew: async (next: number) => {
          renewals += 1;
          return renew(next);
        },
      });
    });
    const task = await heldTask('/ok');
    spy.mockRestore();
    // Several lease periods pass while the model holds its answer: the lease stays with the running turn.
    await vi.waitFor(() => expect(renewals).toBeGreaterThanOrEqual(4), { timeout: 5_000 });
    expect(await coordination.acquireLease(`a2a-task:${task.id}`, 1_000)).toBeNull();
    await task.release();
    const free = await coordination.acquireLease(`a2a-task:${task.id}`, 1_000);
    expect(free).not.toBeNull();
    await free?.release();
  });
});
