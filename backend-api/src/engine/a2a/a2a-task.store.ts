import { randomUUID } from 'node:crypto';
import type { Clock } from '../container/index.js';
import type { TurnEndRow } from '../agents/runtime/index.js';
import type { SqlDatabase, SqlExecutor } from '../persistence/index.js';
import { toStorableValue } from '../resources/schema/index.js';
import { TERMINAL_STATES, type A2aTaskState } from './a2a-protocol.js';
import type { A2aApprovalRequest, A2aTask, A2aTaskScope } from './a2a-task.types.js';

interface TaskRow {
  id: string;
  context_id: string;
  audience: string;
  skill_id: string;
  owner_key: string;
  organization_id: string | null;
  state: string;
  status_text: string | null;
  approval: A2aApprovalRequest | null;
  artifact_text: string | null;
  version: number;
  push_configured: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A status change to store. */
export interface A2aTaskChange {
  state: A2aTaskState;
  statusText?: string | null;
  approval?: A2aApprovalRequest | null;
  artifactText?: string | null;
}

/** A task to insert. */
export interface NewA2aTask {
  id?: string;
  leaseEstablished?: boolean;
  contextId: string;
  audience: string;
  skillId: string;
  ownerKey: string;
  organizationId: string | null;
  /** Stores an already finished turn in one write (a blocking send): its final state. */
  finished?: A2aTaskChange;
}

/** The INSERT of a new task (version 1), its parameters numbered from `p`: see {@link insertParams}. */
function insertSql(p: number): string {
  const $ = (i: number) => `$${p + i}`;
  return `INSERT INTO wildo_a2a_tasks (id, context_id, audience, skill_id, owner_key, organization_id, state, version,
      lease_established, status_text, approval, artifact_text, created_at, updated_at)
    VALUES (${$(0)}, ${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, 1, ${$(7)}, ${$(8)}, ${$(9)}, ${$(10)}, ${$(11)}, ${$(11)})`;
}

function insertParams(input: NewA2aTask, now: string): unknown[] {
  const { finished } = input;
  return [
    input.id ?? randomUUID(),
    input.contextId,
    input.audience,
    input.skillId,
    input.ownerKey,
    input.organizationId,
    finished?.state ?? 'working',
    input.leaseEstablished ?? false,
    finished?.statusText ?? null,
    finished?.approval ? JSON.stringify(finished.approval) : null,
    finished?.artifactText ?? null,
    now,
  ];
}

/** The task a finished {@link NewA2aTask} with an id was stored as (what `RETURNING *` would read back). */
function newTask(input: NewA2aTask & { id: string }, now: string): A2aTask {
  const { finished } = input;
  return {
    id: input.id,
    contextId: input.contextId,
    audience: input.audience,
    skillId: input.skillId,
    ownerKey: input.ownerKey,
    organizationId: input.organizationId,
    state: finished?.state ?? 'working',
    statusText: finished?.statusText ?? null,
    approval: finished?.approval ?? null,
    artifactText: finished?.artifactText ?? null,
    version: 1,
    pushConfigured: false,
    createdAt: now,
    updatedAt: now,
  };
}

const TERMINAL_SQL = [...TERMINAL_STATES].map((state) => `'${state}'`).join(', ');

function toTask(row: TaskRow): A2aTask {
  return {
    id: row.id,
    contextId: row.context_id,
    audience: row.audience,
    skillId: row.skill_id,
    ownerKey: row.owner_key,
    organizationId: row.organization_id,
    state: row.state as A2aTaskState,
    statusText: row.status_text,
    approval: row.approval,
    artifactText: row.artifact_text,
    version: Number(row.version),
    pushConfigured: row.push_configured,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * A2A tasks on SQL (PGlite or PostgreSQL). Every read names the owner and the endpoint (and the organization of a
 * confined credential): another tenant's task id is simply not found. Status changes never leave a terminal state,
 * so a cancellation is not overwritten by the loop it stopped.
 */
export class A2aTaskStore {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
  ) {}

  /** Creates a working task for a conversation (with the id its runner may already hold a lease under). */
  async create(input: NewA2aTask): Promise<A2aTask> {
    const { rows } = await this.db.query<TaskRow>(
      `${insertSql(1)} RETURNING *`,
      insertParams(input, this.clock.now().toISOString()),
    );
    return toTask(rows[0] as TaskRow);
  }

  /**
   * A finished task as the row the statement storing its turn's end inserts (see {@link TurnEndRow}); `onStored`
   * gets the task once that statement has committed. Its texts are made storable as the conversation's own are: a
   * character the database refuses must not cost the conversation its last write.
   */
  endRow(
    input: Omit<NewA2aTask, 'id' | 'leaseEstablished'> & { finished: A2aTaskChange },
    onStored: (task: A2aTask) => void,
  ): TurnEndRow {
    const task = { ...input, id: randomUUID(), finished: toStorableValue(input.finished) };
    const now = this.clock.now().toISOString();
    return { sql: insertSql, params: insertParams(task, now), stored: () => onStored(newTask(task, now)) };
  }

  /** A task the scope may see, or undefined. */
  async find(scope: A2aTaskScope, id: string): Promise<A2aTask | undefined> {
    const { rows } = await this.db.query<TaskRow>(
      `SELECT * FROM wildo_a2a_tasks WHERE id = $1 AND owner_key = $2 AND audience = $3
         AND (organization_id IS NULL OR organization_id = ANY($4::text[]))`,
      [id, scope.ownerKey, scope.audience, [...scope.organizationIds]],
    );
    return rows[0] ? toTask(rows[0]) : undefined;
  }

  /** A task by id alone, for the replica that runs it. */
  async byId(id: string): Promise<A2aTask | undefined> {
    const { rows } = await this.db.query<TaskRow>('SELECT * FROM wildo_a2a_tasks WHERE id = $1', [id]);
    return rows[0] ? toTask(rows[0]) : undefined;
  }

  /** The scope's tasks, newest first, optionally of one conversation or state. */
  async list(
    scope: A2aTaskScope,
    filter: { contextId?: string; state?: A2aTaskState; limit: number; offset: number },
  ): Promise<{ tasks: A2aTask[]; total: number }> {
    const where = `owner_key = $1 AND audience = $2 AND (organization_id IS NULL OR organization_id = ANY($3::text[]))
      AND ($4::text IS NULL OR context_id = $4) AND ($5::text IS NULL OR state = $5)`;
    const params = [
      scope.ownerKey,
      scope.audience,
      [...scope.organizationIds],
      filter.contextId ?? null,
      filter.state ?? null,
    ];
    const [{ rows }, counted] = await Promise.all([
      this.db.query<TaskRow>(
        `SELECT * FROM wildo_a2a_tasks WHERE ${where} ORDER BY created_at DESC, id LIMIT ${filter.limit} OFFSET ${filter.offset}`,
        params,
      ),
      this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM wildo_a2a_tasks WHERE ${where}`, params),
    ]);
    return { tasks: rows.map(toTask), total: Number(counted.rows[0]?.n ?? 0) };
  }

  /**
   * Applies a status change unless the task already ended; returns the task as it now is (undefined: unchanged).
   * `within` runs in the same transaction once the row changed (its push deliveries are enqueued there, so a change
   * that rolls back notifies nobody); when it throws, the change is rolled back.
   */
  async change(
    id: string,
    change: A2aTaskChange,
    within?: (tx: SqlExecutor, task: A2aTask) => Promise<void>,
  ): Promise<A2aTask | undefined> {
    if (!within) return this.changeWith(this.db, id, change);
    return this.db.transaction(async (tx) => {
      const changed = await this.changeWith(tx, id, change);
      if (changed) await within(tx, changed);
      return changed;
    });
  }

  private async changeWith(db: SqlExecutor, id: string, change: A2aTaskChange): Promise<A2aTask | undefined> {
    const { rows } = await db.query<TaskRow>(
      `UPDATE wildo_a2a_tasks SET state = $2, status_text = $3, approval = $4, artifact_text = COALESCE($5, artifact_text),
         version = version + 1, updated_at = $6
       WHERE id = $1 AND state NOT IN (${TERMINAL_SQL}) RETURNING *`,
      [
        id,
        change.state,
        change.statusText ?? null,
        change.approval ? JSON.stringify(change.approval) : null,
        change.artifactText ?? null,
        this.clock.now().toISOString(),
      ],
    );
    return rows[0] ? toTask(rows[0]) : undefined;
  }

  /** Notes that the running replica holds the task's lease (the sweep trusts only tasks that had one). */
  async noteLease(id: string): Promise<void> {
    await this.db.query('UPDATE wildo_a2a_tasks SET lease_established = true, updated_at = $2 WHERE id = $1', [
      id,
      this.clock.now().toISOString(),
    ]);
  }

  /** Marks a task as having push configurations, so its status changes look them up. */
  async notePushConfigured(id: string): Promise<void> {
    await this.db.query('UPDATE wildo_a2a_tasks SET push_configured = true WHERE id = $1 AND NOT push_configured', [
      id,
    ]);
  }

  /** Running tasks not touched since `before` whose runner had established a lease: candidates for the sweep. */
  async stale(before: Date): Promise<A2aTask[]> {
    const { rows } = await this.db.query<TaskRow>(
      `SELECT * FROM wildo_a2a_tasks WHERE state IN ('submitted', 'working') AND lease_established AND updated_at < $1 LIMIT 100`,
      [before.toISOString()],
    );
    return rows.map(toTask);
  }
}
