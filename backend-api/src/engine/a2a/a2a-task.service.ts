import { randomUUID } from 'node:crypto';
import type { ConversationService, TurnEndRow, TurnEvent } from '../agents/runtime/index.js';
import type { CoordinationBackend, Lease, Unsubscribe } from '../coordination/index.js';
import { FrameworkError, toFrameworkError } from '../errors/index.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import type { SqlExecutor } from '../persistence/index.js';
import { resolveSkill, type A2aAgent } from './a2a-agents.js';
import { A2aTaskLeases } from './a2a-task-leases.js';
import { A2A_ERRORS, A2aRpcError, invalidParams, taskNotFound, TERMINAL_STATES } from './a2a-protocol.js';
import type { A2aTaskChange, A2aTaskStore } from './a2a-task.store.js';
import type { A2aTask, A2aTaskScope, A2aTaskUpdate } from './a2a-task.types.js';
import type { A2aSendParams } from './a2a-wire.js';

/** Channel on which cancellations are broadcast to every replica. */
export const A2A_CANCEL_CHANNEL = 'a2a:cancel';
/** Channel of one task's updates (resubscribers on any replica follow it). */
export const taskChannel = (taskId: string) => `a2a:task:${taskId}`;

/** Who sends, through which agent. */
export interface A2aCaller {
  agent: A2aAgent;
  principal: AuthenticatedPrincipal;
  scope: A2aTaskScope;
  organizationId?: string;
  requestId: string;
}

/** What a send produced: a task (running, paused or ended), or a direct reply when no task could be stored. */
export type A2aSendOutcome = { task: A2aTask } | { message: { contextId: string; text: string } };

/** Someone told about every stored status change (push notifications), inside the change's transaction. */
export interface A2aStatusListener {
  /** False when it could not act yet (its queue has not started here): it is called again after the commit. */
  statusChanged(task: A2aTask, final: boolean, tx?: SqlExecutor): Promise<boolean>;
}

/** Settings of the task service, each with its default. */
export interface A2aTaskSettings {
  /** Lease of a running task (default 30 s), refreshed at a third of it while the turn runs. */
  leaseTtlMs: number;
}

const DEFAULT_SETTINGS: A2aTaskSettings = { leaseTtlMs: 30_000 };

/**
 * Runs A2A messages as tasks over the conversational path of actor systems (admission, budgets, tools through the
 * shared dispatch path, approvals). A task's loop runs on the replica that accepted it, under a lease it refreshes;
 * a cancellation is broadcast so that replica aborts the loop wherever the request arrived.
 */
export class A2aTaskService {
  private readonly running = new Map<string, AbortController>();
  private readonly leases: A2aTaskLeases;
  private unsubscribe: Unsubscribe | undefined;

  constructor(
    private readonly deps: {
      conversations: Pick<ConversationService, 'startTurn' | 'resumeAfterDecision'>;
      store: A2aTaskStore;
      coordination: CoordinationBackend;
      listener: A2aStatusListener;
      logger: Logger;
      /** Starts A2A's job queues on this replica (before a change's transaction, which enqueues in them). */
      startJobs?: () => Promise<void>;
    },
    settings: Partial<A2aTaskSettings> = {},
  ) {
    this.leases = new A2aTaskLeases(deps, { ...DEFAULT_SETTINGS, ...settings }.leaseTtlMs);
  }

  /** Listens for cancellations of tasks this replica runs. */
  async start(): Promise<void> {
    this.unsubscribe = await this.deps.coordination.subscribe(A2A_CANCEL_CHANNEL, (taskId) => {
      this.running.get(taskId)?.abort(new Error('canceled'));
    });
  }

  /** Stops listening and aborts the loops still running here. */
  async stop(): Promise<void> {
    await this.unsubscribe?.().catch(() => undefined);
    for (const controller of this.running.values()) controller.abort(new Error('shutting down'));
  }

  /** Whether this replica runs the task's loop. */
  isRunningHere(taskId: string): boolean {
    return this.running.has(taskId);
  }

  /**
   * Sends a message: a new turn (skill routed, admitted) or a decision on a paused task. Blocking sends wait for
   * the turn's end; others return the working task. `onUpdate` follows the task as it runs (direct streams).
   */
  async send(
    caller: A2aCaller,
    params: A2aSendParams,
    onUpdate?: (update: A2aTaskUpdate) => void,
  ): Promise<A2aSendOutcome> {
    const paused = params.taskId ? await this.pausedTask(caller.scope, params) : undefined;
    if (!paused && params.decision)
      throw invalidParams('send a decision on the task that asks for it (message.taskId).');
    const skillId = paused ? paused.skillId : resolveSkill(caller.agent, params.skillId).id;
    const abort = new AbortController();
    const blocking = params.blocking && !paused && !onUpdate ? new BlockingTurn() : undefined;
    const events = this.turn(caller, params, skillId, paused, abort.signal, blocking);
    // Admission refusals (roles, tenant, budget, a busy conversation) are thrown here, before any task exists.
    const first = await events.next();
    if (first.done || first.value.type !== 'execution') throw new Error('A turn did not start with its execution.');
    const contextId = first.value.executionId;
    if (blocking) return this.runBlocking(caller, skillId, contextId, events, blocking);
    // The lease is taken under the task's id before the task is stored, so the row says a runner holds it.
    const taskId = paused?.id ?? randomUUID();
    const lease = await this.leases.acquire(taskId);
    const task = paused
      ? await this.change(paused.id, { state: 'working' }, false)
      : await this.deps.store
          .create({
            id: taskId,
            leaseEstablished: lease !== null,
            contextId,
            audience: caller.scope.audience,
            skillId,
            ownerKey: caller.scope.ownerKey,
            organizationId: caller.organizationId ?? null,
          })
          .catch((error: unknown) => {
            // Not fatal: the turn is answered as a blocking reply instead (a message id is never a task id).
            this.deps.logger.error('A2A task could not be stored', { error: String(error) });
            return undefined;
          });
    if (!task) {
      await lease?.release().catch(() => undefined);
      if (paused) throw taskNotFound();
      return this.runBlocking(caller, skillId, contextId, events);
    }
    if (paused && lease) await this.deps.store.noteLease(task.id);
    // A replica that runs tasks works the queues (deliveries, the sweep); started beside the turn, not before it.
    void this.startJobs().catch((error: unknown) =>
      this.deps.logger.error('A2A job queue did not start', { error: String(error) }),
    );
    this.publish(task, { kind: 'status', task, final: false }, onUpdate);
    const run = this.runLoop(task, events, abort, lease, onUpdate);
    if (params.blocking) return { task: await run };
    void run.catch((error: unknown) => this.deps.logger.error('A2A task loop failed', { error: String(error) }));
    return { task };
  }

  /** Cancels a task of the scope: stored as canceled at once, then broadcast so the replica running it stops. */
  async cancel(scope: A2aTaskScope, taskId: string): Promise<A2aTask> {
    const task = await this.deps.store.find(scope, taskId);
    if (!task) throw taskNotFound();
    if (TERMINAL_STATES.has(task.state)) throw notCancelable();
    const canceled = await this.change(
      task.id,
      { state: 'canceled', statusText: 'The task was canceled at the client’s request.' },
      true,
    );
    if (!canceled) throw notCancelable();
    this.publish(canceled, { kind: 'status', task: canceled, final: true });
    try {
      await this.deps.coordination.publish(A2A_CANCEL_CHANNEL, task.id);
    } catch (error) {
      // The stored state already says canceled; the loop's own result can no longer overwrite it.
      this.deps.logger.error('A2A cancellation could not be broadcast', { taskId: task.id, error: String(error) });
      this.running.get(task.id)?.abort(new Error('canceled'));
    }
    return canceled;
  }

  /**
   * Marks running tasks failed when their runner is gone (see {@link A2aTaskLeases.sweep}); tasks running here are
   * left alone.
   */
  async sweepAbandoned(now: Date): Promise<string[]> {
    return this.leases.sweep(
      now,
      (taskId) => this.running.has(taskId),
      (taskId, change) => this.change(taskId, change, true),
      (failed) => this.publish(failed, { kind: 'status', task: failed, final: true }),
    );
  }

  /** Stores a status change; its push deliveries are enqueued in the same transaction. */
  private async change(taskId: string, change: A2aTaskChange, final: boolean): Promise<A2aTask | undefined> {
    let late = false;
    const changed = await this.deps.store.change(taskId, change, async (tx, task) => {
      late = !(await this.deps.listener.statusChanged(task, final, tx));
    });
    // The queue was not running here (a callback registered on another replica): the change is committed, so its
    // deliveries are enqueued now, once the queue has started (it cannot start inside the transaction).
    if (changed && late)
      await this.startJobs()
        .then(() => this.deps.listener.statusChanged(changed, final))
        .catch((error: unknown) =>
          this.deps.logger.error('A2A push not enqueued', { taskId: changed.id, error: String(error) }),
        );
    return changed;
  }

  /** Starts A2A's job queues here (memoized; the sweep's schedule and worker come with them). */
  private startJobs(): Promise<void> {
    return this.deps.startJobs?.() ?? Promise.resolve();
  }

  private async pausedTask(scope: A2aTaskScope, params: A2aSendParams): Promise<A2aTask | undefined> {
    const task = await this.deps.store.find(scope, params.taskId ?? '');
    if (!task) throw taskNotFound();
    if (task.state !== 'input-required' || !params.decision)
      throw new A2aRpcError(
        A2A_ERRORS.UNSUPPORTED_OPERATION,
        'This task takes no message now: only a task waiting for input takes its approval decision.',
      );
    return task;
  }

  private turn(
    caller: A2aCaller,
    params: A2aSendParams,
    skillId: string,
    paused: A2aTask | undefined,
    signal: AbortSignal,
    blocking: BlockingTurn | undefined,
  ): AsyncGenerator<TurnEvent, void> {
    const common = { principal: caller.principal, requestId: caller.requestId, surface: 'a2a' as const, signal };
    if (paused && params.decision)
      return this.deps.conversations.resumeAfterDecision({ ...params.decision, ...common });
    return this.deps.conversations.startTurn({
      ...common,
      systemRef: skillId,
      message: params.text,
      ...(params.contextId ? { executionId: params.contextId } : {}),
      ...(caller.organizationId ? { organizationId: caller.organizationId } : {}),
      ...(blocking ? { endRow: () => blocking.endRow(this.deps.store, caller, skillId) } : {}),
    });
  }

  /** Runs the rest of the turn under the task's lease and stores how it ended. */
  private async runLoop(
    task: A2aTask,
    events: AsyncGenerator<TurnEvent, void>,
    abort: AbortController,
    lease: Lease | null,
    onUpdate: ((update: A2aTaskUpdate) => void) | undefined,
  ): Promise<A2aTask> {
    this.running.set(task.id, abort);
    const stopLease = this.leases.keep(task.id, lease);
    let change: A2aTaskChange;
    try {
      change = await this.consume(events, (text) =>
        this.publish(task, { kind: 'delta', taskId: task.id, contextId: task.contextId, text }, onUpdate),
      );
    } catch (error) {
      change = abort.signal.aborted
        ? { state: 'canceled', statusText: 'The task was canceled.' }
        : { state: 'failed', statusText: clientSafe(error) };
      if (!abort.signal.aborted) this.deps.logger.warn('A2A task failed', { taskId: task.id, error: String(error) });
    } finally {
      this.running.delete(task.id);
      await stopLease();
    }
    const changed = await this.change(task.id, change, true);
    if (changed) {
      this.publish(changed, { kind: 'status', task: changed, final: true }, onUpdate);
      return changed;
    }
    // Ended elsewhere first (canceled through another replica): report what is stored, without re-announcing it.
    const current = (await this.deps.store.byId(task.id)) ?? task;
    onUpdate?.({ kind: 'status', task: current, final: true });
    return current;
  }

  /** Reads a turn to its end: the reply's deltas go to `onDelta`; returns the state it ends the task in. */
  private async consume(
    events: AsyncGenerator<TurnEvent, void>,
    onDelta?: (text: string) => void,
    blocking?: BlockingTurn,
  ): Promise<A2aTaskChange> {
    let text = '';
    let change: A2aTaskChange = { state: 'completed', artifactText: '' };
    // Read when the turn's end is stored: by then every event of the turn has passed below.
    if (blocking) blocking.change = () => change;
    for await (const event of events) {
      if (event.type === 'text_delta') {
        text += event.text;
        onDelta?.(event.text);
      } else if (event.type === 'approval_required') {
        const { approval } = event;
        change = {
          state: 'input-required',
          statusText: text.trim() || 'A proposed action needs your approval.',
          approval: {
            approvalId: approval.approvalId,
            approvalToken: approval.approvalToken,
            functionRef: approval.functionRef,
            arguments: approval.arguments,
            allowArgumentModification: approval.allowArgumentModification,
            expiresAt: approval.expiresAt,
          },
        };
      } else if (event.type === 'turn_completed' && event.status !== 'awaiting_approval') {
        change = { state: 'completed', artifactText: text };
      }
    }
    return change;
  }

  /** Tells the local follower and resubscribers on every replica (push deliveries were enqueued with the change). */
  private publish(task: A2aTask, update: A2aTaskUpdate, onUpdate?: (update: A2aTaskUpdate) => void): void {
    onUpdate?.(update);
    void this.deps.coordination
      .publish(taskChannel(task.id), JSON.stringify(update))
      .catch((error: unknown) => this.deps.logger.warn('A2A task update not broadcast', { error: String(error) }));
  }

  /**
   * A blocking send: the turn runs to its end, then the task exists once, in its final state (nobody can address it
   * before the reply). The statement that stores the turn's end stores it too (one commit on the reply's path, not
   * two); a turn that failed, or that ran without that row (the fallback of a task that could not be created), has
   * it stored here afterwards. Stored failing, the reply is answered as a message; a pause cannot be answered
   * without its task, so that is an error.
   */
  private async runBlocking(
    caller: A2aCaller,
    skillId: string,
    contextId: string,
    events: AsyncGenerator<TurnEvent, void>,
    blocking: BlockingTurn = new BlockingTurn(),
  ): Promise<A2aSendOutcome> {
    blocking.contextId = contextId;
    let change: A2aTaskChange;
    try {
      change = await this.consume(events, undefined, blocking);
    } catch (error) {
      this.deps.logger.warn('A2A turn failed', { error: String(error) });
      change = { state: 'failed', statusText: clientSafe(error) };
    }
    // The statement that stored the turn's end committed the task with it: that is the task, whatever came after.
    if (blocking.stored) return { task: blocking.stored };
    const task = await this.deps.store
      .create({
        contextId,
        audience: caller.scope.audience,
        skillId,
        ownerKey: caller.scope.ownerKey,
        organizationId: caller.organizationId ?? null,
        finished: change,
      })
      .catch((error: unknown) => {
        this.deps.logger.error('A2A task could not be stored', { error: String(error) });
        return undefined;
      });
    if (task) return { task };
    if (change.state === 'input-required')
      throw new FrameworkError('SERVICE_UNAVAILABLE', 'The paused task could not be stored; try again shortly.', {
        retryAfterSeconds: 5,
      });
    return { message: { contextId, text: change.artifactText ?? change.statusText ?? '' } };
  }
}

/**
 * A blocking turn's task, which the conversation stores with the turn's end ({@link A2aTaskService.runBlocking}).
 * `change` reads the state the turn ends the task in (kept by {@link A2aTaskService.consume}); `stored` is the task
 * once that statement has committed.
 */
class BlockingTurn {
  /** The conversation, from the turn's first event. */
  contextId = '';
  change: () => A2aTaskChange = () => ({ state: 'completed', artifactText: '' });
  stored: A2aTask | undefined;

  endRow(store: A2aTaskStore, caller: A2aCaller, skillId: string): TurnEndRow {
    const task = {
      contextId: this.contextId,
      audience: caller.scope.audience,
      skillId,
      ownerKey: caller.scope.ownerKey,
      organizationId: caller.organizationId ?? null,
      finished: this.change(),
    };
    return store.endRow(task, (stored) => {
      this.stored = stored;
    });
  }
}

function notCancelable(): A2aRpcError {
  return new A2aRpcError(A2A_ERRORS.TASK_NOT_CANCELABLE, 'Task cannot be canceled: it has already ended.');
}

/** A failure's client-safe description (an internal failure says nothing of its cause). */
function clientSafe(error: unknown): string {
  const framework = toFrameworkError(error);
  return framework.code === 'INTERNAL' ? 'The agent failed to answer.' : framework.message;
}
