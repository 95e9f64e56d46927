import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Clock } from '../../container/clock.js';
import { SAAS_SERVICE_TYPES } from '../../container/saas-service-types.tokens.js';
import type { SqlDatabase } from '../../persistence/sql-database.js';
import type { ProviderMessage } from '../providers/llm-provider.types.js';

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

/** Persistence of conversations: executions and their ordered messages (history is always loaded server-side). */
@injectable()
export class ConversationStore {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** Starts a conversation, already claimed by the turn that creates it. */
  async create(owner: ExecutionOwner): Promise<Execution> {
    const id = randomUUID();
    const now = this.clock.now();
    await this.db.query(
      `INSERT INTO wildo_agent_executions (id, system_ref, agent_ref, owner_key, credential_key, organization_id, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $7)`,
      [id, owner.systemRef, owner.agentRef, owner.ownerKey, owner.credentialKey, owner.organizationId, now],
    );
    return { id, ...owner, status: 'running' };
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
    const { rows } = await this.db.query<{ message: ProviderMessage }>('SELECT message FROM wildo_agent_messages WHERE execution_id = $1 ORDER BY seq', [executionId]);
    return rows.map((row) => row.message);
  }

  /** Appends messages at the end of the conversation, in order, in one transaction. */
  async append(executionId: string, messages: readonly ProviderMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ next: number }>('SELECT coalesce(max(seq), 0) + 1 AS next FROM wildo_agent_messages WHERE execution_id = $1', [executionId]);
      let seq = Number(rows[0]?.next ?? 1);
      for (const message of messages) {
        await tx.query('INSERT INTO wildo_agent_messages (execution_id, seq, message, created_at) VALUES ($1, $2, $3, $4)', [executionId, seq++, JSON.stringify(message), now]);
      }
      await tx.query('UPDATE wildo_agent_executions SET updated_at = $2 WHERE id = $1', [executionId, now]);
    });
  }

  /** Releases the turn's claim: the conversation is active again, or waits for an approval. */
  async setStatus(executionId: string, status: ExecutionStatus): Promise<void> {
    await this.db.query('UPDATE wildo_agent_executions SET status = $2, updated_at = $3 WHERE id = $1', [executionId, status, this.clock.now()]);
  }
}
