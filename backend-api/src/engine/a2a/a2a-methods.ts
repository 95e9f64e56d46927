import type { CoordinationBackend } from '../coordination/index.js';
import { readUserSnapshot, type AuthenticatedPrincipal, type PrincipalDirectory } from '../identity/index.js';
import { ownerKeyOf } from '../agents/approvals/index.js';
import type { A2aAgent } from './a2a-agents.js';
import { taskNotFound, TERMINAL_STATES, type A2aDialect, type A2aOperation } from './a2a-protocol.js';
import type { A2aPushConfigView, A2aPushService } from './a2a-push.service.js';
import { taskChannel, type A2aCaller, type A2aTaskService } from './a2a-task.service.js';
import type { A2aTaskStore } from './a2a-task.store.js';
import type { A2aTask, A2aTaskScope, A2aTaskUpdate } from './a2a-task.types.js';
import { UpdateQueue } from './a2a-update-queue.js';
import {
  listParamsOf,
  pushConfigOf,
  replyMessage,
  sendParamsOf,
  sendResult,
  streamFrame,
  taskIdOf,
  taskView,
} from './a2a-wire.js';

/** What the methods need. */
export interface A2aMethodDeps {
  tasks: A2aTaskService;
  store: A2aTaskStore;
  push: A2aPushService;
  directory: PrincipalDirectory;
  coordination: CoordinationBackend;
}

/** One authenticated call of a method. */
export interface A2aCall {
  dialect: A2aDialect;
  operation: A2aOperation;
  params: Record<string, unknown>;
  agent: A2aAgent;
  principal: AuthenticatedPrincipal;
  requestId: string;
  /** Aborted when the client goes away (ends a subscription, never the task). */
  signal: AbortSignal;
}

/** A method's answer: one JSON-RPC result, or a stream of results. */
export type A2aAnswer = { result: unknown } | { stream: AsyncIterable<unknown> };

/** The organization a credential is confined to (a machine of it, a restricted delegation), if any. */
function confinedOrganization(principal: AuthenticatedPrincipal): string | undefined {
  return principal.kind === 'machine' ? principal.organizationId : principal.organizationRestriction;
}

/**
 * The task scope of a caller at an agent. A person's organizations are read now, not trusted from when the task
 * was created: someone who left an organization no longer sees the tasks they ran there.
 */
export async function scopeOf(
  directory: PrincipalDirectory,
  principal: AuthenticatedPrincipal,
  agent: A2aAgent,
): Promise<A2aTaskScope> {
  const confined = confinedOrganization(principal);
  const organizationIds = confined
    ? [confined]
    : principal.kind === 'user'
      ? [...((await readUserSnapshot(directory, principal.userId))?.memberships.keys() ?? [])]
      : [];
  return { ownerKey: ownerKeyOf(principal), audience: agent.audience, organizationIds };
}

/**
 * The organization a turn runs in: the credential's own when it is confined to one (a different one asked for is
 * not found), else `metadata.organizationId`, else a person's only organization (from the scope just read, not a
 * second directory read). Membership is checked again by admission; this only picks which one is addressed.
 */
function organizationFor(
  principal: AuthenticatedPrincipal,
  scope: A2aTaskScope,
  requested: string | undefined,
): string | undefined {
  const confined = confinedOrganization(principal);
  if (confined) {
    if (requested && requested !== confined) throw taskNotFound();
    return confined;
  }
  if (requested || principal.kind !== 'user') return requested;
  return scope.organizationIds.length === 1 ? scope.organizationIds[0] : undefined;
}

/** Runs one A2A method for an authenticated caller. */
export async function runA2aMethod(deps: A2aMethodDeps, call: A2aCall): Promise<A2aAnswer> {
  const scope = await scopeOf(deps.directory, call.principal, call.agent);
  const { dialect, params } = call;
  switch (call.operation) {
    case 'send':
    case 'stream':
      return send(deps, call, scope);
    case 'get': {
      const task = await deps.store.find(scope, taskIdOf(params));
      if (!task) throw taskNotFound();
      return { result: taskView(dialect, task) };
    }
    case 'list': {
      const filter = listParamsOf(params);
      const { tasks, total } = await deps.store.list(scope, {
        ...filter,
        limit: filter.pageSize,
        offset: filter.offset,
      });
      const next = filter.offset + tasks.length;
      return {
        result: {
          tasks: tasks.map((task) => taskView(dialect, task)),
          nextPageToken: next < total ? String(next) : '',
          pageSize: filter.pageSize,
          totalSize: total,
        },
      };
    }
    case 'cancel':
      return { result: taskView(dialect, await deps.tasks.cancel(scope, taskIdOf(params))) };
    case 'subscribe':
      return { stream: subscribe(deps, call, scope, taskIdOf(params)) };
    default:
      return push(deps, call, scope);
  }
}

async function send(deps: A2aMethodDeps, call: A2aCall, scope: A2aTaskScope): Promise<A2aAnswer> {
  const params = sendParamsOf(call.dialect, call.params);
  const organizationId = organizationFor(call.principal, scope, params.organizationId);
  const caller: A2aCaller = {
    agent: call.agent,
    principal: call.principal,
    scope,
    requestId: call.requestId,
    ...(organizationId ? { organizationId } : {}),
  };
  if (call.operation === 'send') {
    const outcome = await deps.tasks.send(caller, params);
    if ('message' in outcome)
      return {
        result: sendResult(call.dialect, {
          message: replyMessage(call.dialect, outcome.message.contextId, outcome.message.text),
        }),
      };
    const task = outcome.task;
    if (params.push) await deps.push.set(scope, task.id, params.push);
    return { result: sendResult(call.dialect, { task }) };
  }
  // A stream: the task first, then its changes until it ends or pauses. Closing it does not cancel the task.
  const queue = new UpdateQueue<A2aTaskUpdate>();
  const outcome = await deps.tasks.send(caller, { ...params, blocking: false }, (update) => queue.push(update));
  if ('message' in outcome) {
    const message = replyMessage(call.dialect, outcome.message.contextId, outcome.message.text);
    return { stream: once(call.dialect === 'legacy' ? message : { message }) };
  }
  return { stream: follow(call.dialect, outcome.task, queue, call.signal) };
}

async function* once(frame: unknown): AsyncGenerator<unknown> {
  yield frame;
}

/** Frames of a followed task: the task, then updates after it, until a final one (or the client leaves). */
async function* follow(
  dialect: A2aDialect,
  task: A2aTask,
  queue: UpdateQueue<A2aTaskUpdate>,
  signal: AbortSignal,
): AsyncGenerator<unknown> {
  const onAbort = () => queue.close();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    yield streamFrame(dialect, { kind: 'task', task });
    if (TERMINAL_STATES.has(task.state)) return;
    for await (const update of queue) {
      // Status changes the first frame already showed are skipped; deltas always pass.
      if (update.kind === 'status' && update.task.version <= task.version && !update.final) continue;
      yield streamFrame(dialect, update);
      if (update.kind === 'status' && update.final) return;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    queue.close();
  }
}

/** Reattaches to a task: subscribed first, then the current state, then later changes (no replay). */
async function* subscribe(
  deps: A2aMethodDeps,
  call: A2aCall,
  scope: A2aTaskScope,
  taskId: string,
): AsyncGenerator<unknown> {
  const found = await deps.store.find(scope, taskId);
  if (!found) throw taskNotFound();
  const queue = new UpdateQueue<A2aTaskUpdate>();
  const unsubscribe = await deps.coordination.subscribe(taskChannel(found.id), (message) =>
    queue.push(JSON.parse(message) as A2aTaskUpdate),
  );
  try {
    const current = (await deps.store.find(scope, taskId)) ?? found;
    yield* follow(call.dialect, current, queue, call.signal);
  } finally {
    await unsubscribe();
  }
}

async function push(deps: A2aMethodDeps, call: A2aCall, scope: A2aTaskScope): Promise<A2aAnswer> {
  const { params, dialect } = call;
  const taskId = taskIdOf(params, 'taskId');
  const configId = dialect === 'legacy' ? params.pushNotificationConfigId : params.id;
  const wrap = (config: A2aPushConfigView) =>
    dialect === 'legacy'
      ? {
          taskId: config.taskId,
          pushNotificationConfig: {
            id: config.id,
            url: config.url,
            ...(config.authentication ? { authentication: { schemes: [config.authentication.scheme] } } : {}),
          },
        }
      : config;
  switch (call.operation) {
    case 'push.set':
      return { result: wrap(await deps.push.set(scope, taskId, pushConfigOf(params))) };
    case 'push.get':
      return { result: wrap(await deps.push.get(scope, taskId, typeof configId === 'string' ? configId : undefined)) };
    case 'push.list': {
      const configs = (await deps.push.list(scope, taskId)).map(wrap);
      return { result: dialect === 'legacy' ? configs : { configs, nextPageToken: '' } };
    }
    default: {
      if (typeof configId !== 'string' || configId === '') throw taskNotFound();
      await deps.push.delete(scope, taskId, configId);
      return { result: dialect === 'legacy' ? null : {} };
    }
  }
}
