import type { CoordinationBackend, Lease } from '../coordination/index.js';
import type { Logger } from '../logging/index.js';
import type { A2aTaskChange, A2aTaskStore } from './a2a-task.store.js';
import type { A2aTask } from './a2a-task.types.js';

/** The coordination lease a replica holds while it runs a task's turn. */
export function leaseName(taskId: string): string {
  return `a2a-task:${taskId}`;
}

/**
 * Liveness of running tasks: the running replica holds a lease per task and refreshes it (touching the task) while
 * the turn runs; the sweep fails a task only on corroborating evidence that its runner is gone.
 */
export class A2aTaskLeases {
  constructor(
    private readonly deps: { coordination: CoordinationBackend; store: A2aTaskStore; logger: Logger },
    private readonly ttlMs: number,
  ) {}

  /** Takes the task's lease; null when the lease store cannot give one (the task then runs without it). */
  async acquire(taskId: string): Promise<Lease | null> {
    try {
      return await this.deps.coordination.acquireLease(leaseName(taskId), this.ttlMs);
    } catch (error) {
      this.deps.logger.warn('A2A task lease unavailable; the task runs without one', { taskId, error: String(error) });
      return null;
    }
  }

  /** Refreshes the lease while the turn runs (and touches the task, for the sweep); the result lets it go. */
  keep(taskId: string, lease: Lease | null): () => Promise<void> {
    if (!lease) return async () => undefined;
    const ttl = this.ttlMs;
    const timer = setInterval(
      () => {
        void lease
          .renew(ttl)
          .then((kept) => (kept ? this.deps.store.noteLease(taskId) : undefined))
          .catch((error: unknown) =>
            this.deps.logger.warn('A2A lease refresh failed', { taskId, error: String(error) }),
          );
      },
      Math.max(10, Math.floor(ttl / 3)),
    );
    timer.unref();
    return async () => {
      clearInterval(timer);
      await lease.release().catch(() => undefined);
    };
  }

  /**
   * Marks running tasks failed when their runner is gone: only tasks whose runner had established a lease, not
   * touched for two lease periods, not running here, and whose lease can be taken now. A lease store that cannot
   * be read is no proof of death: those tasks are left alone.
   */
  async sweep(
    now: Date,
    runningHere: (taskId: string) => boolean,
    change: (taskId: string, change: A2aTaskChange) => Promise<A2aTask | undefined>,
    failed: (task: A2aTask) => void,
  ): Promise<string[]> {
    const swept: string[] = [];
    for (const task of await this.deps.store.stale(new Date(now.getTime() - 2 * this.ttlMs))) {
      if (runningHere(task.id)) continue;
      let lease: Lease | null;
      try {
        lease = await this.deps.coordination.acquireLease(leaseName(task.id), this.ttlMs);
      } catch {
        continue;
      }
      if (!lease) continue;
      try {
        const changed = await change(task.id, {
          state: 'failed',
          statusText: 'The task was abandoned: the server running it stopped.',
        });
        if (changed) {
          swept.push(task.id);
          failed(changed);
        }
      } finally {
        await lease.release().catch(() => undefined);
      }
    }
    return swept;
  }
}
