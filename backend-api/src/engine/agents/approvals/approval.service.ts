import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../../container/index.js';
import { FrameworkError } from '../../errors/index.js';
import type { AuthenticatedPrincipal, PrimarySecret } from '../../identity/index.js';
import type { SqlDatabase } from '../../persistence/index.js';

/** How long a pending approval may wait (checked when the decision is used). */
export const APPROVAL_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A pending approval as the person sees it. */
export interface PendingApproval {
  approvalId: string;
  executionId: string;
  functionRef: string;
  toolCallId: string;
  arguments: Record<string, unknown>;
  allowArgumentModification: boolean;
  createdAt: string;
  expiresAt: string;
  /** Proof binding a decision to this exact call (tool, arguments, principal); sent back with the decision. */
  approvalToken: string;
}

/** A person's answer to a pending request, with the token the request carried. */
export interface ApprovalDecision {
  approvalId: string;
  approvalToken: string;
  decision: 'approve' | 'deny';
  /** Replacement arguments (when the tool allows it); validated against the tool's contract before use. */
  modifiedArguments?: Record<string, unknown>;
}

/** A decision that may be applied: the call to run (or not) and with which arguments. */
export interface AppliedDecision {
  approval: Omit<PendingApproval, 'approvalToken'>;
  decision: 'approve' | 'deny';
  arguments: Record<string, unknown>;
}

interface ApprovalRow {
  id: string;
  execution_id: string;
  owner_key: string;
  function_ref: string;
  tool_call_id: string;
  arguments: Record<string, unknown>;
  arguments_hash: string;
  allow_modification: boolean;
  status: string;
  created_at: Date | string;
  expires_at: Date | string;
}

/** The owner key of a principal: a person, or a machine client (machines are refused at the gate anyway). */
export function ownerKeyOf(principal: AuthenticatedPrincipal): string {
  return principal.kind === 'user' ? `user:${principal.userId}` : `client:${principal.clientId}`;
}

/** Canonical JSON (sorted keys) so equal arguments always hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const refused = (message: string, reason: 'approval_required' | 'principal_not_allowed' = 'approval_required') =>
  new FrameworkError('FORBIDDEN', message, { reason });

/**
 * Human approval of tool calls. A pending request is persisted and signed (HMAC under a key derived from the
 * primary secret) over the exact call: approval id, conversation, tool, canonical arguments, owner and expiry.
 * A decision must carry that signature, come from the owner (never a machine), arrive before expiry and find
 * the request still pending: a stale, foreign or replayed decision cannot approve a different call.
 */
@injectable()
export class ApprovalService {
  private readonly key: Buffer;

  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.PrimarySecret) secret: PrimarySecret,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {
    this.key = secret.derive('approvals');
  }

  /** Pauses a tool call for its owner's decision. Machines cannot be asked: they are refused here. */
  async request(
    call: {
      executionId: string;
      functionRef: string;
      toolCallId: string;
      arguments: Record<string, unknown>;
      allowArgumentModification: boolean;
    },
    principal: AuthenticatedPrincipal,
  ): Promise<PendingApproval> {
    if (principal.kind !== 'user')
      throw refused(
        'This call needs a person’s approval, which a machine credential cannot give.',
        'principal_not_allowed',
      );
    const now = this.clock.now();
    const row: ApprovalRow = {
      id: randomUUID(),
      execution_id: call.executionId,
      owner_key: ownerKeyOf(principal),
      function_ref: call.functionRef,
      tool_call_id: call.toolCallId,
      arguments: call.arguments,
      arguments_hash: createHash('sha256').update(canonical(call.arguments)).digest('base64url'),
      allow_modification: call.allowArgumentModification,
      status: 'pending',
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + APPROVAL_LIFETIME_MS).toISOString(),
    };
    await this.db.query(
      `INSERT INTO wildo_agent_approvals (id, execution_id, owner_key, function_ref, tool_call_id, arguments, arguments_hash, allow_modification, status, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10)`,
      [
        row.id,
        row.execution_id,
        row.owner_key,
        row.function_ref,
        row.tool_call_id,
        JSON.stringify(row.arguments),
        row.arguments_hash,
        row.allow_modification,
        row.created_at,
        row.expires_at,
      ],
    );
    return this.view(row);
  }

  /** Pending approvals of a person, for one conversation or all of them. */
  async listPending(principal: AuthenticatedPrincipal, executionId?: string): Promise<PendingApproval[]> {
    const { rows } = await this.db.query<ApprovalRow>(
      `SELECT * FROM wildo_agent_approvals WHERE owner_key = $1 AND status = 'pending' AND expires_at > $2 ${executionId ? 'AND execution_id = $3' : ''} ORDER BY created_at`,
      executionId ? [ownerKeyOf(principal), this.clock.now(), executionId] : [ownerKeyOf(principal), this.clock.now()],
    );
    return rows.map((row) => this.view(row));
  }

  /**
   * Applies a decision once. `modifiedArguments` replaces the arguments when the tool allows it (the caller
   * validates them against the tool's schema). Returns what to run; throws FORBIDDEN (`approval_required`,
   * `principal_not_allowed`) for anything that is not the owner's fresh decision on this exact call.
   */
  async decide(
    principal: AuthenticatedPrincipal,
    decision: ApprovalDecision,
    validateArguments: (functionRef: string, args: unknown) => Record<string, unknown> = (_ref, args) =>
      args as Record<string, unknown>,
  ): Promise<AppliedDecision> {
    const row = await this.ownedRow(principal, decision.approvalId);
    if (!this.verify(row, decision.approvalToken)) throw refused('This decision does not match the pending call.');
    if (row.status !== 'pending') throw new FrameworkError('CONFLICT', 'This approval request was already decided.');
    const now = this.clock.now();
    if (new Date(row.expires_at).getTime() <= now.getTime()) {
      await this.db.query(
        `UPDATE wildo_agent_approvals SET status = 'expired', decided_at = $2 WHERE id = $1 AND status = 'pending'`,
        [row.id, now],
      );
      throw refused('This approval request expired; ask for the action again.');
    }
    if (decision.modifiedArguments && !row.allow_modification)
      throw refused('The arguments of this call cannot be changed.');
    // Checked before the request is used up: a person's typo must not consume the approval.
    const args =
      decision.decision === 'approve' && decision.modifiedArguments
        ? validateArguments(row.function_ref, decision.modifiedArguments)
        : row.arguments;
    const { affectedRows } = await this.db.query(
      `UPDATE wildo_agent_approvals SET status = $2, decided_at = $3 WHERE id = $1 AND status = 'pending'`,
      [row.id, decision.decision === 'approve' ? 'approved' : 'denied', now],
    );
    if (affectedRows !== 1) throw new FrameworkError('CONFLICT', 'This approval request was already decided.');
    const { approvalToken: _token, ...approval } = this.view(row);
    return { approval, decision: decision.decision, arguments: args };
  }

  /** The conversation a person's approval request belongs to (NOT_FOUND for anyone else's). */
  async executionOf(principal: AuthenticatedPrincipal, approvalId: string): Promise<string> {
    return (await this.ownedRow(principal, approvalId)).execution_id;
  }

  /** Whether a conversation has a request still waiting for a decision (unexpired). */
  async hasPending(executionId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM wildo_agent_approvals WHERE execution_id = $1 AND status = 'pending' AND expires_at > $2`,
      [executionId, this.clock.now()],
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }

  /** Marks a conversation's lapsed requests expired (their calls are then closed as not run). */
  async expireLapsed(executionId: string): Promise<void> {
    await this.db.query(
      `UPDATE wildo_agent_approvals SET status = 'expired', decided_at = $2 WHERE execution_id = $1 AND status = 'pending' AND expires_at <= $2`,
      [executionId, this.clock.now()],
    );
  }

  private async ownedRow(principal: AuthenticatedPrincipal, approvalId: string): Promise<ApprovalRow> {
    if (principal.kind !== 'user') throw refused('Only a person can decide on an approval.', 'principal_not_allowed');
    const { rows } = await this.db.query<ApprovalRow>('SELECT * FROM wildo_agent_approvals WHERE id = $1', [
      approvalId,
    ]);
    const row = rows[0];
    // A foreign request is answered like a missing one: its existence is not revealed.
    if (!row || row.owner_key !== ownerKeyOf(principal))
      throw new FrameworkError('NOT_FOUND', 'No such approval request.');
    return row;
  }

  private signature(row: ApprovalRow): string {
    const material = [
      row.id,
      row.execution_id,
      row.function_ref,
      row.tool_call_id,
      row.arguments_hash,
      row.owner_key,
      new Date(row.expires_at).toISOString(),
    ].join('\u0000');
    return createHmac('sha256', this.key).update(material).digest('base64url');
  }

  private verify(row: ApprovalRow, token: string): boolean {
    const expected = Buffer.from(this.signature(row));
    const actual = Buffer.from(token);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private view(row: ApprovalRow): PendingApproval {
    return {
      approvalId: row.id,
      executionId: row.execution_id,
      functionRef: row.function_ref,
      toolCallId: row.tool_call_id,
      arguments: row.arguments,
      allowArgumentModification: row.allow_modification,
      createdAt: new Date(row.created_at).toISOString(),
      expiresAt: new Date(row.expires_at).toISOString(),
      approvalToken: this.signature(row),
    };
  }
}
