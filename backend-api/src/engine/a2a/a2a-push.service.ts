import { randomUUID } from 'node:crypto';
import type { Clock } from '../container/clock.js';
import type { Logger } from '../logging/index.js';
import { findOutboundRefusal, type OutboundFetcher, type OutboundTargetPolicy } from '../net/index.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import { invalidParams, taskNotFound, TERMINAL_STATES } from './a2a-protocol.js';
import type { A2aTaskStore } from './a2a-task.store.js';
import type { A2aStatusListener } from './a2a-task.service.js';
import type { A2aTask, A2aTaskScope } from './a2a-task.types.js';
import { pushPayload, type A2aPushConfigInput } from './a2a-wire.js';

/** Retries of a failing callback: `attempts` in all, waiting `baseDelayMs` doubled after each failure. */
export interface A2aPushRetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

/** Default retry policy: 4 attempts, 1 s, 2 s, 4 s apart. */
export const DEFAULT_PUSH_RETRY: A2aPushRetryPolicy = { attempts: 4, baseDelayMs: 1_000 };

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
 * delivery and never echoed) and delivery of status changes to them through the outbound-target guard, checked at
 * registration and again at every delivery, no redirects followed. Failures are retried with backoff; every
 * attempt is recorded. A configuration registered after a change is not told about it.
 */
export class A2aPushService implements A2aStatusListener {
  private readonly inFlight = new Set<Promise<void>>();
  /** One chain per task, so its callbacks hear its changes in order. */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      db: SqlDatabase;
      tasks: A2aTaskStore;
      guard: OutboundFetcher & { policy: Pick<OutboundTargetPolicy, 'checkUrl'> };
      clock: Clock;
      logger: Logger;
      retry?: A2aPushRetryPolicy;
    },
  ) {}

  /** Registers (or replaces, by id) a callback for a task of the scope. */
  async set(scope: A2aTaskScope, taskId: string, input: A2aPushConfigInput): Promise<A2aPushConfigView> {
    const task = await this.deps.tasks.find(scope, taskId);
    if (!task) throw taskNotFound();
    const refusal = this.refusalOf(input.url);
    if (refusal) throw invalidParams(`the callback URL is refused: ${refusal}`);
    const configId = input.id ?? randomUUID();
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
    }>('SELECT * FROM wildo_a2a_push_deliveries WHERE task_id = $1 ORDER BY attempted_at, attempt', [taskId]);
    return rows.map((row) => ({
      taskId: row.task_id,
      state: row.state,
      attempt: Number(row.attempt),
      outcome: row.outcome,
      httpStatus: row.http_status === null ? null : Number(row.http_status),
      detail: row.detail,
    }));
  }

  /** Delivers a status change to the task's callbacks, in the background. */
  statusChanged(task: A2aTask, final: boolean): void {
    // Most tasks never register a callback: their changes cost no lookup.
    if (!task.pushConfigured) return;
    const previous = this.chains.get(task.id) ?? Promise.resolve();
    const delivery = previous
      .then(() => this.deliverAll(task, final || TERMINAL_STATES.has(task.state)))
      .catch((error: unknown) =>
        this.deps.logger.error('A2A push delivery failed', { taskId: task.id, error: String(error) }),
      );
    this.chains.set(task.id, delivery);
    this.inFlight.add(delivery);
    void delivery.finally(() => {
      this.inFlight.delete(delivery);
      if (this.chains.get(task.id) === delivery) this.chains.delete(task.id);
    });
  }

  /** Waits for deliveries in flight (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async rows(taskId: string): Promise<ConfigRow[]> {
    const { rows } = await this.deps.db.query<ConfigRow>(
      'SELECT * FROM wildo_a2a_push_configs WHERE task_id = $1 ORDER BY created_at, config_id',
      [taskId],
    );
    return rows;
  }

  private async deliverAll(task: A2aTask, final: boolean): Promise<void> {
    const configs = await this.rows(task.id);
    await Promise.all(configs.map((config) => this.deliver(config, task, final)));
  }

  private async deliver(config: ConfigRow, task: A2aTask, final: boolean): Promise<void> {
    const retry = this.deps.retry ?? DEFAULT_PUSH_RETRY;
    const body = JSON.stringify(pushPayload(task, final));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.auth_scheme && config.auth_credentials)
      headers.authorization = `${config.auth_scheme} ${config.auth_credentials}`;
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    for (let attempt = 1; attempt <= retry.attempts; attempt++) {
      try {
        const response = await this.deps.guard.fetch(config.url, { method: 'POST', headers, body, maxBytes: 65_536 });
        return await this.record(config, task, attempt, 'delivered', response.status, null);
      } catch (error) {
        const refusal = findOutboundRefusal(error);
        const reason = refusal?.reason ?? 'unreachable';
        const status = (refusal as { status?: number } | undefined)?.status ?? null;
        if (!RETRYABLE.has(reason)) return this.record(config, task, attempt, 'refused', status, reason);
        const last = attempt === retry.attempts;
        await this.record(config, task, attempt, last ? 'gave_up' : 'failed', status, reason);
        if (!last) await delay(retry.baseDelayMs * 2 ** (attempt - 1));
      }
    }
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
    task: A2aTask,
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
        task.id,
        task.state,
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

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
