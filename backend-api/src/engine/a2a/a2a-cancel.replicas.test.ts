import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { A2A_PATH, a2aResult, a2aStream, a2aToken, v1Message } from '../../testing/a2a.fixtures.js';
import { anthropicStubOptions } from '../../testing/agents.fixtures.js';
import { createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { AnthropicStub, deferred, textReply, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { MCP_BACKEND_OPTIONS, spyOnServices } from '../../testing/mcp.fixtures.js';
import { createTestBackend, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { CoordinationBackend } from '../coordination/coordination.js';
import { createPostgresDatabase } from '../persistence/postgres-database.js';
import {
  createPostgresTestSchema,
  postgresTestUrl,
  type PostgresTestSchema,
} from '../persistence/postgres-test-schema.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import { A2aRuntime } from './a2a.module.js';
import { taskChannel } from './a2a-task.service.js';

const databaseUrl = postgresTestUrl();
const redisUrl = process.env.REDIS_URL;

/**
 * Two replicas of the reference application on one PostgreSQL schema and one Redis namespace: a task started on
 * replica A is canceled through replica B, and A's model and tool loop stops.
 */
describe.skipIf(!databaseUrl || !redisUrl)('A2A cancellation across two replicas (PostgreSQL + Redis)', () => {
  const stub = new AnthropicStub();
  let schema: PostgresTestSchema;
  const databases: SqlDatabase[] = [];
  const replicas: TestBackend[] = [];
  let a: TestBackend;
  let b: TestBackend;
  let owner: TestUser;
  let orgId: string;
  let token: string;
  /** A push receiver both replicas may call (their guards' test-only allowlist): the bodies it got. */
  let receiver: Server;
  let receiverPort: number;
  const received: any[] = [];

  async function replica(): Promise<TestBackend> {
    const database = await createPostgresDatabase({
      connectionString: databaseUrl as string,
      searchPath: schema.schema,
      maxConnections: 4,
    });
    databases.push(database);
    const backend = await createTestBackend(database, {
      ...MCP_BACKEND_OPTIONS,
      ...anthropicStubOptions(stub),
      redisUrl: redisUrl as string,
      coordinationKeyPrefix: `test:a2a:${schema.schema}:`,
      jobs: { pollingIntervalSeconds: 0.5 },
      a2a: {
        pushGuard: {
          mode: 'development',
          developmentTargets: [{ host: '127.0.0.1', port: receiverPort }],
          allowHttpForDevelopmentTargets: true,
        },
      },
    });
    replicas.push(backend);
    return backend;
  }

  beforeAll(async () => {
    await stub.start();
    receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      req.on('end', () => {
        received.push(JSON.parse(text));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverPort = (receiver.address() as AddressInfo).port;
    schema = await createPostgresTestSchema(databaseUrl as string);
    a = await replica();
    b = await replica();
    owner = await signUp(a.api, 'replica-owner');
    orgId = await createOrganization(a.api, owner);
    token = await a2aToken(a.api, owner);
  });

  afterAll(async () => {
    for (const backend of replicas) await backend.close();
    for (const database of databases) await database.close();
    await schema?.drop();
    await stub.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('stops the loop on replica A when B cancels: no further model call, no later tool effect', async () => {
    const created = await a.api.post(`/api/v1/organizations/${orgId}/todos`).set(owner.auth).send({ title: 'Milk' });
    const todoId = created.body.data._id as string;
    const hold = deferred();
    // The first answer streams a little, then holds; had the loop gone on, it would read the todo and ask again.
    stub.enqueue(
      toolCallsReply([{ id: 'read-1', name: 'resource_todos_read', arguments: { id: todoId } }], {
        text: 'Let me look',
        holdAfterFirstDelta: hold.promise,
      }),
      textReply('You have milk.'),
    );
    const services = spyOnServices(a);
    const { task } = await a2aResult(
      a.api,
      A2A_PATH,
      'SendMessage',
      { message: v1Message('What is on my list?'), metadata: { skillId: 'todo-assistant' }, returnImmediately: true },
      token,
    );
    await stub.waitForRequests(1);
    const runtimeA = a.backend.container.get(A2aRuntime);
    expect(runtimeA.tasks.isRunningHere(task.id)).toBe(true);

    // While A runs the turn it holds the task's lease: B cannot take it, and B's sweep leaves the task alone.
    const coordinationB = b.backend.container.get<CoordinationBackend>(SAAS_SERVICE_TYPES.Coordination);
    expect(await coordinationB.acquireLease(`a2a-task:${task.id}`, 1_000)).toBeNull();
    const runtimeB = b.backend.container.get(A2aRuntime);
    expect(await runtimeB.tasks.sweepAbandoned(new Date(Date.now() + 60 * 60_000))).toEqual([]);

    // A callback registered through B hears the cancellation B stores, once, from one replica's queue worker.
    await a2aResult(
      b.api,
      A2A_PATH,
      'tasks/pushNotificationConfig/set',
      { taskId: task.id, pushNotificationConfig: { url: `http://127.0.0.1:${receiverPort}/hook` } },
      token,
    );
    const canceled = await a2aResult(b.api, A2A_PATH, 'CancelTask', { id: task.id }, token);
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await vi.waitFor(() => expect(runtimeA.tasks.isRunningHere(task.id)).toBe(false), { timeout: 5_000 });
    hold.resolve();

    expect(stub.requests).toHaveLength(1);
    expect(stub.pending).toBe(1);
    expect(services.count()).toBe(0);
    const onA = await a2aResult(a.api, A2A_PATH, 'GetTask', { id: task.id }, token);
    expect(onA.status.state).toBe('TASK_STATE_CANCELED');
    // The lease was let go when the loop stopped.
    const lease = await coordinationB.acquireLease(`a2a-task:${task.id}`, 1_000);
    expect(lease).not.toBeNull();
    await lease?.release();
    await vi.waitFor(async () => expect(await runtimeB.push.deliveries(task.id)).toHaveLength(1), { timeout: 10_000 });
    expect(await runtimeA.push.deliveries(task.id)).toMatchObject([{ outcome: 'delivered', state: 'canceled' }]);
    expect(received.filter((body) => body.statusUpdate?.taskId === task.id)).toMatchObject([
      { statusUpdate: { status: { state: 'canceled' }, final: true } },
    ]);
  });

  it('runs a task started on A to completion when nobody cancels (positive control)', async () => {
    stub.reset();
    stub.enqueue(textReply(`Answer ${randomUUID()}`));
    const { task } = await a2aResult(
      a.api,
      A2A_PATH,
      'SendMessage',
      { message: v1Message('Hello'), metadata: { skillId: 'todo-assistant' } },
      token,
    );
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const onB = await a2aResult(b.api, A2A_PATH, 'GetTask', { id: task.id }, token);
    expect(onB.artifacts[0].parts[0].text).toBe(task.artifacts[0].parts[0].text);
  });

  it('follows a task running on A from a subscription on B (current state, then the change)', async () => {
    stub.reset();
    const hold = deferred();
    stub.enqueue(textReply('Answered on A', { waitFor: hold.promise }));
    const { task } = await a2aResult(
      a.api,
      A2A_PATH,
      'SendMessage',
      { message: v1Message('Follow me'), metadata: { skillId: 'todo-assistant' }, returnImmediately: true },
      token,
    );
    await stub.waitForRequests(1);
    // A's answer is released once B's subscription is in place, so B must learn the end through Redis.
    const coordinationB = b.backend.container.get<CoordinationBackend>(SAAS_SERVICE_TYPES.Coordination);
    const subscribe = coordinationB.subscribe.bind(coordinationB);
    const spy = vi.spyOn(coordinationB, 'subscribe').mockImplementation(async (channel, handler) => {
      const unsubscribe = await subscribe(channel, handler);
      if (channel === taskChannel(task.id)) hold.resolve();
      return unsubscribe;
    });
    const { frames } = await a2aStream(b.api, A2A_PATH, 'SubscribeToTask', { id: task.id }, token);
    spy.mockRestore();
    expect(frames[0].task.status.state).toBe('TASK_STATE_WORKING');
    expect(frames.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    const deltas = frames
      .filter((frame) => frame.artifactUpdate)
      .map((frame) => frame.artifactUpdate.artifact.parts[0].text);
    expect(deltas.join('')).toBe('Answered on A');
  });
});
