import { randomUUID } from 'node:crypto';
import type { Clock } from '../container/index.js';
import type { Logger } from '../logging/index.js';
import { findOutboundRefusal, type OutboundFetcher, type OutboundTargetPolicy } from '../net/index.js';
import type { JobRun, JobRunSummary } from '../jobs/index.js';
import type { SqlDatabase, SqlExecutor } from '../persistence/index.js';
import type { A2aJobs, A2aPushJob, A2aPushRetryPolicy } from './a2a-jobs.js';
import { invalidParams, taskNotFound, TERMINAL_STATES } from './a2a-protocol.js';
import type { A2aTaskStore } from './a2a-task.store.js';
import type { A2aStatusListener } from './a2a-task.service.js';
import type { A2aTask, A2aTaskScope } from './a2a-task.types.js';
import { pushPayload, type A2aPushConfigInput } from './a2a-wire.js';

/** A stored push configuration as served: never its token or credentials. */
export interface A2aPushConfigView {
  id: string;
  taskId: string;
  url: string;
  authentication?: { scheme: string };
}

/** One recorded delivery attempt. */
export interface A2aPushDelivery {
  taskId: string;
  state: string;
  attempt: number;
  outcome: 'delivered' | 'failed' | 'refused' | 'gave_up';
  httpStatus: number | null;
  detail: string | null;
  attemptedAt: string;
}

interface ConfigRow {
  id: string;
  task_id: string;
  config_id: string;
  url: string;
  token: string | null;
  auth_scheme: string | null;
  auth_credentials: string | null;
}

const RETRYABLE = new Set(['timeout', 'unreachable', 'bad_status']);

/**
 * Push notifications of A2A tasks: configurations per task (scoped like the task itself; secrets stored for
 * delivery and never echoed) and delivery of status changes to them on the job queue: one job per change and
 * callback, enqueued in the change's transaction, delivered through the outbound-target guard (checked at
 * registration and again at every delivery, no redirects followed), retried by the queue with backoff; every
 * attempt is recorded. A configuration registered after a change is not told about it.
 */
export class A2aPushService implements A2aStatusListener {
  constructor(
    private readonly deps: {
      db: SqlDatabase;
      tasks: A2aTaskStore;
      guard: OutboundFetcher & { policy: Pick<OutboundTargetPolicy, 'checkUrl'> };
      clock: Clock;
      logger: Logger;
      jobs: A2aJobs;
      retry: A2aPushRetryPolicy;
      /** Callbacks one task may have (each status change queues a delivery per callback). */
      maxConfigsPerTask: number;
    },
  ) {}

  /** Registers (or replaces, by id) a callback for a task of the scope. */
  async set(scope: A2aTaskScope, taskId: string, input: A2aPushConfigInput): Promise<A2aPushConfigView> {
    const task = await this.deps.tasks.find(scope, taskId);
    if (!task) throw taskNotFound();
    const refusal = this.refusalOf(input.url);
    if (refusal) throw invalidParams(`the callback URL is refused: ${refusal}`);
    const configId = input.id ?? randomUUID();
    await this.checkRoomFor(task.id, configId);
    // The queue runs here from now on, so this replica's changes of the task can be delivered.
    await this.deps.jobs.start();
    await this.deps.db.query(
      `INSERT INTO wildo_a2a_push_configs (id, task_id, config_id, url, token, auth_scheme, auth_credentials, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (task_id, config_id) DO UPDATE SET url = EXCLUDED.url, token = EXCLUDED.token,
         auth_scheme = EXCLUDED.auth_scheme, auth_credentials = EXCLUDED.auth_credentials`,
      [
        randomUUID(),
        task.id,
        configId,
        input.url,
        input.token ?? null,
        input.authentication?.scheme ?? null,
        input.authentication?.credentials ?? null,
        this.deps.clock.now().toISOString(),
      ],
    );
    await this.deps.tasks.notePushConfigured(task.id);
    return view({
      task_id: task.id,
      config_id: configId,
      url: input.url,
      auth_scheme: input.authentication?.scheme ?? null,
    });
  }

  /** Refuses a new callback past the task's limit (replacing one by its id is always allowed). */
  private async checkRoomFor(taskId: string, configId: string): Promise<void> {
    const { rows } = await this.deps.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM wildo_a2a_push_configs WHERE task_id = $1 AND config_id <> $2',
      [taskId, configId],
    );
    if (Number(rows[0]?.n ?? 0) >= this.deps.maxConfigsPerTask) {
      throw invalidParams(
        `a task has at most ${this.deps.maxConfigsPerTask} push notification callbacks: delete one, or replace one by its id.`,
      );
    }
  }

  /** The task's configurations (the scope must see the task). */
  async list(scope: A2aTaskScope, taskId: string): Promise<A2aPushConfigView[]> {
    const task = await this.deps.tasks.find(scope, taskId);
    if (!task) throw taskNotFound();
    return (await this.rows(task.id)).map(view);
  }

  /** One configuration; without an id, the task's only (or first) one. */
  async get(scope: A2aTaskScope, taskId: string, configId: string | undefined): Promise<A2aPushConfigView> {
    const configs = await this.list(scope, taskId);
    const found = configId ? configs.find((config) => config.id === configId) : configs[0];
    if (!found) throw taskNotFound();
    return found;
  }

  /** Removes a configuration. */
  async delete(scope: A2aTaskScope, taskId: string, configId: string): Promise<void> {
    const task = await this.deps.tasks.find(scope, taskId);
    if (!task) throw taskNotFound();
    const { affectedRows } = await this.deps.db.query(
      'DELETE FROM wildo_a2a_push_configs WHERE task_id = $1 AND config_id = $2',
      [task.id, configId],
    );
    if (affectedRows === 0) throw taskNotFound();
  }

  /** Recorded attempts of a task's deliveries, oldest first (operators and tests read them). */
  async deliveries(taskId: string): Promise<A2aPushDelivery[]> {
    const { rows } = await this.deps.db.query<{
      task_id: string;
      state: string;
      attempt: number;
      outcome: A2aPushDelivery['outcome'];
      http_status: number | null;
      detail: string | null;
      attempted_at: Date | string;
    }>('SELECT * FROM wildo_a2a_push_deliveries WHERE task_id = $1 ORDER BY attempted_at, attempt', [taskId]);
    return rows.map((row) => ({
      taskId: row.task_id,
      state: row.state,
      attempt: Number(row.attempt),
      outcome: row.outcome,
      httpStatus: row.http_status === null ? null : Number(row.http_status),
      detail: row.detail,
      attemptedAt: new Date(row.attempted_at).toISOString(),
    }));
  }

  /**
   * Enqueues one delivery per callback of the task, inside the transaction of the stored change (`tx`): a change
   * that rolls back sends nothing. Without `tx` the jobs are committed at once.
   */
  async statusChanged(task: A2aTask, final: boolean, tx?: SqlExecutor): Promise<boolean> {
    // Most tasks never register a callback: their changes cost no lookup.
    if (!task.pushConfigured) return true;
    // The queue cannot start inside the change's transaction (PGlite has one connection): the caller retries after it.
    if (!this.deps.jobs.isReady()) return false;
    const payload = pushPayload(task, final || TERMINAL_STATES.has(task.state));
    for (const config of await this.rows(task.id, tx))
      await this.deps.jobs.enqueueDelivery(
        { pushConfigId: config.id, taskId: task.id, state: task.state, payload },
        tx,
      );
    return true;
  }

  /**
   * One attempt of a delivery job (the queue's worker): the callback as stored now (a deleted one is skipped), its
   * URL checked again by the guard. A retryable failure throws so the queue retries it, until the last attempt gives up.
   */
  async deliver(run: JobRun<A2aPushJob>): Promise<JobRunSummary> {
    const { data, attempt } = run;
    const { rows } = await this.deps.db.query<ConfigRow>('SELECT * FROM wildo_a2a_push_configs WHERE id = $1', [
      data.pushConfigId,
    ]);
    const config = rows[0];
    if (!config) return { outcome: 'config_deleted' };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.auth_scheme && config.auth_credentials)
      headers.authorization = `${config.auth_scheme} ${config.auth_credentials}`;
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    const body = JSON.stringify(data.payload);
    try {
      const response = await this.deps.guard.fetch(config.url, { method: 'POST', headers, body, maxBytes: 65_536 });
      await this.record(config, data, attempt, 'delivered', response.status, null);
      return { outcome: 'delivered', httpStatus: response.status };
    } catch (error) {
      const refusal = findOutboundRefusal(error);
      const reason = refusal?.reason ?? 'unreachable';
      const status = refusal?.status ?? null;
      if (!RETRYABLE.has(reason)) {
        await this.record(config, data, attempt, 'refused', status, reason);
        return { outcome: 'refused', reason };
      }
      const last = attempt >= this.deps.retry.attempts;
      await this.record(config, data, attempt, last ? 'gave_up' : 'failed', status, reason);
      throw new Error(`A2A push delivery ${last ? 'given up' : 'failed'}: ${reason}`, { cause: error });
    }
  }

  private async rows(taskId: string, db: SqlExecutor = this.deps.db): Promise<ConfigRow[]> {
    const { rows } = await db.query<ConfigRow>(
      'SELECT * FROM wildo_a2a_push_configs WHERE task_id = $1 ORDER BY created_at, config_id',
      [taskId],
    );
    return rows;
  }

  private refusalOf(url: string): string | undefined {
    try {
      this.deps.guard.policy.checkUrl(url);
      return undefined;
    } catch (error) {
      return findOutboundRefusal(error)?.reason ?? 'invalid_url';
    }
  }

  private async record(
    config: ConfigRow,
    job: A2aPushJob,
    attempt: number,
    outcome: A2aPushDelivery['outcome'],
    httpStatus: number | null,
    detail: string | null,
  ): Promise<void> {
    await this.deps.db.query(
      `INSERT INTO wildo_a2a_push_deliveries (id, push_config_id, task_id, state, attempt, outcome, http_status, detail, attempted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        randomUUID(),
        config.id,
        job.taskId,
        job.state,
        attempt,
        outcome,
        httpStatus,
        detail,
        this.deps.clock.now().toISOString(),
      ],
    );
  }
}

function view(row: Pick<ConfigRow, 'task_id' | 'config_id' | 'url' | 'auth_scheme'>): A2aPushConfigView {
  return {
    id: row.config_id,
    taskId: row.task_id,
    url: row.url,
    ...(row.auth_scheme ? { authentication: { scheme: row.auth_scheme } } : {}),
  };
}
