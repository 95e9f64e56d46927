import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../../container/index.js';
import type { SqlDatabase } from '../../persistence/index.js';
import type { ProviderMessage } from '../providers/index.js';

/** A conversation with an actor system's agent. */
export interface Execution {
  id: string;
  systemRef: string;
  agentRef: string;
  ownerKey: string;
  credentialKey: string;
  organizationId: string | null;
  status: ExecutionStatus;
}

/** `running` while a turn holds the conversation; `awaiting_approval` while a tool call waits for a decision. */
export type ExecutionStatus = 'active' | 'running' | 'awaiting_approval';

/** A turn that stops refreshing its claim for this long is presumed dead (its replica stopped mid-turn). */
export const STALE_TURN_MS = 5 * 60 * 1000;

/** Who is asking: the lookup includes the owner, the credential kind and the agent instance, never the id alone. */
export interface ExecutionOwner {
  ownerKey: string;
  credentialKey: string;
  systemRef: string;
  agentRef: string;
  organizationId: string | null;
}

interface ExecutionRow {
  id: string;
  system_ref: string;
  agent_ref: string;
  owner_key: string;
  credential_key: string;
  organization_id: string | null;
  status: ExecutionStatus;
}

const toExecution = (row: ExecutionRow): Execution => ({
  id: row.id,
  systemRef: row.system_ref,
  agentRef: row.agent_ref,
  ownerKey: row.owner_key,
  credentialKey: row.credential_key,
  organizationId: row.organization_id,
  status: row.status,
});

/**
 * A row another module stores with the last write of a turn, in the same statement: it commits with the
 * conversation or not at all, and costs no commit (no round trip, no log flush) of its own. A2A stores the task of
 * a blocking send this way, so its reply does not wait for a second commit after the turn's.
 */
export interface TurnEndRow {
  /** One INSERT (no RETURNING), its parameters numbered from `firstParam`; run as a data-modifying CTE. */
  sql(firstParam: number): string;
  params: readonly unknown[];
  /** Told once the statement has succeeded (the row is stored). */
  stored(): void;
}

/** Persistence of conversations: executions and their ordered messages (history is always loaded server-side). */
@injectable()
export class ConversationStore {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** A new conversation, not yet stored: {@link append} with `create` stores it with its first messages. */
  draft(owner: ExecutionOwner): Execution {
    return { id: randomUUID(), ...owner, status: 'running' };
  }

  /**
   * A conversation of this owner, credential, agent instance and organization; null for anyone else's
   * (indistinguishable from a missing one).
   */
  async find(id: string, owner: ExecutionOwner): Promise<Execution | null> {
    const { rows } = await this.db.query<ExecutionRow>(
      `SELECT id, system_ref, agent_ref, owner_key, credential_key, organization_id, status FROM wildo_agent_executions
       WHERE id = $1 AND owner_key = $2 AND credential_key = $3 AND system_ref = $4 AND agent_ref = $5 AND organization_id IS NOT DISTINCT FROM $6`,
      [id, owner.ownerKey, owner.credentialKey, owner.systemRef, owner.agentRef, owner.organizationId],
    );
    return rows[0] ? toExecution(rows[0]) : null;
  }

  /**
   * Claims the conversation for one turn: from one of `from`, or from a `running` claim gone stale. False when
   * another turn holds it, so two turns never interleave their messages.
   */
  async claim(id: string, from: readonly ExecutionStatus[]): Promise<boolean> {
    const now = this.clock.now();
    const { affectedRows } = await this.db.query(
      `UPDATE wildo_agent_executions SET status = 'running', updated_at = $2
       WHERE id = $1 AND (status = ANY($3::text[]) OR (status = 'running' AND updated_at < $4))`,
      [id, now, [...from], new Date(now.getTime() - STALE_TURN_MS)],
    );
    return affectedRows === 1;
  }

  /** A conversation by id for its owner (approval decisions), whatever the credential. */
  async findForOwner(id: string, ownerKey: string): Promise<Execution | null> {
    const { rows } = await this.db.query<ExecutionRow>(
      'SELECT id, system_ref, agent_ref, owner_key, credential_key, organization_id, status FROM wildo_agent_executions WHERE id = $1 AND owner_key = $2',
      [id, ownerKey],
    );
    return rows[0] ? toExecution(rows[0]) : null;
  }

  /** The conversation's messages, oldest first. */
  async history(executionId: string): Promise<ProviderMessage[]> {
    const { rows } = await this.db.query<{ message: ProviderMessage }>(
      'SELECT message FROM wildo_agent_messages WHERE execution_id = $1 ORDER BY seq',
      [executionId],
    );
    return rows.map((row) => row.message);
  }

  /**
   * Stores messages at positions `firstSeq`, `firstSeq + 1`, ... in one statement. The turn holding the claim is
   * the only writer, so it numbers the messages itself. With `create`, the conversation row is inserted in the
   * same statement (a new conversation is stored with its first message); with `release`, the claim is let go too;
   * with `alongside`, that row is inserted by the same statement.
   */
  async append(
    execution: Execution,
    firstSeq: number,
    messages: readonly ProviderMessage[],
    options: { create?: boolean; release?: ExecutionStatus; alongside?: TurnEndRow } = {},
  ): Promise<void> {
    const now = this.clock.now();
    // $1 id, $2 messages, $3 now, $4 first seq; then the conversation's columns (create) or the new status.
    const params: unknown[] = [execution.id, JSON.stringify(messages), now, firstSeq];
    let head: string;
    if (options.create) {
      params.push(
        execution.systemRef,
        execution.agentRef,
        execution.ownerKey,
        execution.credentialKey,
        execution.organizationId,
        options.release ?? 'running',
      );
      head = `parent AS (INSERT INTO wildo_agent_executions (id, system_ref, agent_ref, owner_key, credential_key, organization_id, status, created_at, updated_at)
                VALUES ($1, $5, $6, $7, $8, $9, $10, $3, $3) RETURNING id)`;
    } else {
      // Every write refreshes the claim, so a long turn is never mistaken for a dead one.
      params.push(options.release ?? null);
      head = `parent AS (UPDATE wildo_agent_executions SET status = coalesce($5::text, status), updated_at = $3 WHERE id = $1 RETURNING id)`;
    }
    const { alongside } = options;
    // A data-modifying CTE runs to completion whether or not the main statement reads it.
    if (alongside) {
      head += `, alongside AS (${alongside.sql(params.length + 1)})`;
      params.push(...alongside.params);
    }
    await this.db.query(
      `WITH ${head}
       INSERT INTO wildo_agent_messages (execution_id, seq, message, created_at)
       SELECT parent.id, $4::int + m.ordinality::int - 1, m.value, $3 FROM parent, jsonb_array_elements($2::jsonb) WITH ORDINALITY AS m`,
      params,
    );
    alongside?.stored();
  }

  /** Releases the turn's claim: the conversation is active again, or waits for an approval. */
  async setStatus(executionId: string, status: ExecutionStatus): Promise<void> {
    await this.db.query('UPDATE wildo_agent_executions SET status = $2, updated_at = $3 WHERE id = $1', [
      executionId,
      status,
      this.clock.now(),
    ]);
  }
}
