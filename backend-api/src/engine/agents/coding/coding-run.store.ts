import type { AgentCallUsage, CodingAgent_ProgressEvent, CodingAgent_StopReason } from '@wildo/shared-lib';
import type { Clock } from '../../container/index.js';
import type { SqlDatabase, SqlExecutor } from '../../persistence/index.js';
import { toStorableValue } from '../../resources/schema/index.js';

/** Where a stored session stands: a run holds it, it waits for a person's answer, or it can be followed up. */
export type CodingSessionStatus = 'running' | 'parked' | 'idle';

/** A run's state: running, or ended (with a stop reason) or failed (with what failed). */
export type CodingRunStatus = 'running' | 'ended' | 'failed';

/** A stored coding session. */
export interface StoredCodingSession {
  agentRef: string;
  sessionId: string;
  ownerKey: string;
  workspaceRoot: string;
  status: CodingSessionStatus;
  resumable: boolean;
  question: string | null;
  awaitingInputUntil: Date | null;
  lastRunId: string;
}

/** A stored run and its record: every permission request with its answer, every file and terminal call, each turn. */
export interface StoredCodingRun {
  id: string;
  agentRef: string;
  ownerKey: string;
  profileRef: string;
  sessionId: string | null;
  continuation: boolean;
  status: CodingRunStatus;
  stopReason: CodingAgent_StopReason | null;
  finalMessage: string | null;
  turns: number;
  autoContinuations: number;
  usage: AgentCallUsage | null;
  record: CodingAgent_ProgressEvent[];
  /** Record entries beyond the kept maximum. */
  recordDropped: number;
  failure: string | null;
  startedAt: Date;
  endedAt: Date | null;
}

/** Why a continuation could not claim its session. */
export type SessionClaim =
  | { ok: true; session: StoredCodingSession }
  | { ok: false; reason: 'not_found' | 'busy' | 'expired' | 'not_resumable' };

/** How a run ended, for {@link CodingRunStore.finish}. */
export interface CodingRunEnd {
  status: Exclude<CodingRunStatus, 'running'>;
  stopReason?: CodingAgent_StopReason;
  finalMessage?: string;
  turns: number;
  autoContinuations: number;
  usage?: AgentCallUsage;
  record: { entries: CodingAgent_ProgressEvent[]; dropped: number };
  failure?: string;
  /** The session's state after the run (omitted when no session was opened). */
  session?: {
    sessionId: string;
    workspaceRoot: string;
    status: Exclude<CodingSessionStatus, 'running'>;
    resumable: boolean;
    question?: string;
    awaitingInputUntil?: Date;
  };
}

interface SessionRow {
  agent_ref: string;
  session_id: string;
  owner_key: string;
  workspace_root: string;
  status: CodingSessionStatus;
  resumable: boolean;
  question: string | null;
  awaiting_input_until: Date | null;
  last_run_id: string;
}

const SESSION_COLUMNS =
  'agent_ref, session_id, owner_key, workspace_root, status, resumable, question, awaiting_input_until, last_run_id';

const toSession = (row: SessionRow): StoredCodingSession => ({
  agentRef: row.agent_ref,
  sessionId: row.session_id,
  ownerKey: row.owner_key,
  workspaceRoot: row.workspace_root,
  status: row.status,
  resumable: row.resumable,
  question: row.question,
  awaitingInputUntil: row.awaiting_input_until,
  lastRunId: row.last_run_id,
});

/**
 * Coding runs and sessions in the application's database (PGlite or PostgreSQL, the same statements): a run is
 * stored when it starts and completed with its record when it ends; a session is claimed by one run at a time, so a
 * parked run is answered once, by its own initiator, within its awaiting-input TTL, from any replica or after a
 * restart.
 */
export class CodingRunStore {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
  ) {}

  /** Stores a run that is starting. */
  async start(run: {
    id: string;
    agentRef: string;
    ownerKey: string;
    profileRef: string;
    sessionId?: string;
  }): Promise<void> {
    await this.db.query(
      `INSERT INTO wildo_coding_runs (id, agent_ref, owner_key, profile_ref, session_id, continuation, status, started_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'running', $7)`,
      [
        run.id,
        run.agentRef,
        run.ownerKey,
        run.profileRef,
        run.sessionId ?? null,
        run.sessionId !== undefined,
        this.clock.now(),
      ],
    );
  }

  /**
   * Claims a stored session for a continuation: the initiator's own (anyone else's reads as not found), idle or
   * parked within its TTL, or held by a run gone stale (`staleAfterMs` without an update: its replica stopped).
   */
  async claim(
    key: { agentRef: string; sessionId: string; ownerKey: string },
    runId: string,
    staleAfterMs: number,
  ): Promise<SessionClaim> {
    const now = this.clock.now();
    const { rows } = await this.db.query<SessionRow>(
      `UPDATE wildo_coding_sessions SET status = 'running', last_run_id = $4, updated_at = $5
       WHERE agent_ref = $1 AND session_id = $2 AND owner_key = $3 AND resumable
         AND (status = 'idle' OR (status = 'parked' AND awaiting_input_until > $5) OR (status = 'running' AND updated_at < $6))
       RETURNING ${SESSION_COLUMNS}`,
      [key.agentRef, key.sessionId, key.ownerKey, runId, now, new Date(now.getTime() - staleAfterMs)],
    );
    if (rows[0]) return { ok: true, session: toSession(rows[0]) };
    const current = await this.session(key.agentRef, key.sessionId);
    if (!current || current.ownerKey !== key.ownerKey) return { ok: false, reason: 'not_found' };
    if (!current.resumable) return { ok: false, reason: 'not_resumable' };
    return { ok: false, reason: current.status === 'running' ? 'busy' : 'expired' };
  }

  /** Completes a run with its outcome and record and stores its session's new state, in one transaction. */
  async finish(run: { id: string; agentRef: string; ownerKey: string }, end: CodingRunEnd): Promise<void> {
    const now = this.clock.now();
    const record = toStorableValue(end.record.entries);
    await this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE wildo_coding_runs SET status = $2, stop_reason = $3, final_message = $4, turns = $5, auto_continuations = $6,
           usage = $7, record = $8, record_dropped = $9, failure = $10, session_id = coalesce($11, session_id), ended_at = $12
         WHERE id = $1`,
        [
          run.id,
          end.status,
          end.stopReason ?? null,
          end.finalMessage === undefined ? null : toStorableValue(end.finalMessage),
          end.turns,
          end.autoContinuations,
          end.usage ? JSON.stringify(end.usage) : null,
          JSON.stringify(record),
          end.record.dropped,
          end.failure === undefined ? null : toStorableValue(end.failure),
          end.session?.sessionId ?? null,
          now,
        ],
      );
      if (end.session) await this.saveSession(tx, run, end.session, now);
    });
  }

  /** Puts a claimed session back as it can be continued (a continuation that failed before it changed anything). */
  async release(agentRef: string, sessionId: string): Promise<void> {
    await this.db.query(
      `UPDATE wildo_coding_sessions SET status = 'idle', updated_at = $3 WHERE agent_ref = $1 AND session_id = $2 AND status = 'running'`,
      [agentRef, sessionId, this.clock.now()],
    );
  }

  /** A stored session, whoever owns it (callers check the owner). */
  async session(agentRef: string, sessionId: string): Promise<StoredCodingSession | undefined> {
    const { rows } = await this.db.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM wildo_coding_sessions WHERE agent_ref = $1 AND session_id = $2`,
      [agentRef, sessionId],
    );
    return rows[0] ? toSession(rows[0]) : undefined;
  }

  /** A stored run with its record. */
  async run(runId: string): Promise<StoredCodingRun | undefined> {
    const { rows } = await this.db.query<Record<string, unknown>>('SELECT * FROM wildo_coding_runs WHERE id = $1', [
      runId,
    ]);
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: row.id as string,
      agentRef: row.agent_ref as string,
      ownerKey: row.owner_key as string,
      profileRef: row.profile_ref as string,
      sessionId: row.session_id as string | null,
      continuation: row.continuation as boolean,
      status: row.status as CodingRunStatus,
      stopReason: row.stop_reason as CodingAgent_StopReason | null,
      finalMessage: row.final_message as string | null,
      turns: row.turns as number,
      autoContinuations: row.auto_continuations as number,
      usage: row.usage as AgentCallUsage | null,
      record: row.record as CodingAgent_ProgressEvent[],
      recordDropped: row.record_dropped as number,
      failure: row.failure as string | null,
      startedAt: row.started_at as Date,
      endedAt: row.ended_at as Date | null,
    };
  }

  private async saveSession(
    tx: SqlExecutor,
    run: { id: string; agentRef: string; ownerKey: string },
    session: NonNullable<CodingRunEnd['session']>,
    now: Date,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO wildo_coding_sessions (${SESSION_COLUMNS}, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
       ON CONFLICT (agent_ref, session_id) DO UPDATE SET status = $5, resumable = $6, question = $7,
         awaiting_input_until = $8, last_run_id = $9, updated_at = $10
       WHERE wildo_coding_sessions.owner_key = $3`,
      [
        run.agentRef,
        session.sessionId,
        run.ownerKey,
        session.workspaceRoot,
        session.status,
        session.resumable,
        session.question === undefined ? null : toStorableValue(session.question),
        session.awaitingInputUntil ?? null,
        run.id,
        now,
      ],
    );
  }
}
