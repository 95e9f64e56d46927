import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../container/index.js';
import { FrameworkError, type ApprovalReference } from '../errors/index.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import type { ApprovalCall, ApprovalGate } from '../resources/index.js';

/** The page where a person decides pending approvals (below the pages' URL). */
export const APPROVALS_PAGE_PATH = '/approvals';

/** A pending approval as the person who decides it sees it. */
export interface OperationApprovalView {
  id: string;
  /** Where the call came from: `rest`, `mcp`, `a2a` or `tool`. */
  surface: string;
  /** The operation's service path (`hotels.cancel`). */
  operation: string;
  /** The operation as people name it (`Cancel: Hotels (travel agency)`). */
  title: string;
  description: string | null;
  /** `write`, `destructive`, `irreversible`, ...: what the call will do to data. */
  effect: string;
  organizationId: string | null;
  /** The record the call addresses (instance operations). */
  recordId: string | null;
  /** The call's input, exactly as it will run. */
  arguments: unknown;
  /** The operation's input schema (JSON Schema), to show the arguments as a form. */
  inputSchema: unknown;
  status: 'pending' | 'approved' | 'denied' | 'used';
  createdAt: string;
  expiresAt: string;
}

interface ApprovalRow {
  id: string;
  requester_key: string;
  user_id: string;
  surface: string;
  operation: string;
  title: string;
  description: string | null;
  effect: string;
  organization_id: string | null;
  record_id: string | null;
  input_digest: string;
  arguments: unknown;
  input_schema: unknown;
  status: OperationApprovalView['status'];
  created_at: Date;
  expires_at: Date;
}

/** Canonical JSON (sorted keys, no spaces): equal inputs always give the same digest. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Whom an approval is bound to: the person, and the client application when the call came through one (a delegated
 * MCP or A2A token), so another client of the same person cannot spend it.
 */
export function requesterKeyOf(principal: AuthenticatedPrincipal): string {
  if (principal.kind === 'machine') return `client:${principal.clientId}`;
  const via = principal.credential.authorizedParty;
  return via ? `user:${principal.userId}|client:${via}` : `user:${principal.userId}`;
}

const unavailable = (cause: unknown) =>
  new FrameworkError('SERVICE_UNAVAILABLE', 'Approvals cannot be checked right now; try again later.', {
    reason: 'approval_not_evaluable',
    retryAfterSeconds: 5,
    cause,
  });

const invalid = (message: string) => new FrameworkError('FORBIDDEN', message, { reason: 'approval_invalid' });

/** Input schemas as JSON Schema, computed once per operation. */
const schemaCache = new WeakMap<object, unknown>();
function inputSchemaOf(call: ApprovalCall): unknown {
  const schema = call.operation.inputSchema;
  if (!schema) return null;
  let json = schemaCache.get(schema);
  if (json === undefined) {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    schemaCache.set(schema, json);
  }
  return json;
}

/** What an approval binds: the operation, the tenant, the record and the accepted input. */
function digestOf(call: ApprovalCall): string {
  const material = canonicalJson({
    operation: call.operation.servicePath,
    organizationId: call.organizationId ?? null,
    id: call.input.id ?? null,
    body: call.input.body ?? null,
    query: call.input.query ?? null,
  });
  return createHash('sha256').update(material).digest('base64url');
}

/**
 * Approval of operation calls, held in the application's database so it holds across replicas. A call to an
 * operation that declares approval, without one, opens a pending approval and is refused with it
 * (`approval_required`); the person decides in the approvals page; the retry carries the approval's id and runs
 * only if the approval was granted, is unexpired, unused, and was opened by the same caller for the same input,
 * which one conditional UPDATE checks and spends atomically. Any failure to read or write approvals refuses the
 * call (`approval_not_evaluable`, 503): it fails closed.
 */
export class OperationApprovals implements ApprovalGate {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
    private readonly pageUrl: (path: string) => string,
    /** The operation as people name it (the resource's display name), for the approvals page. */
    private readonly titleOf: (call: ApprovalCall) => string = defaultTitle,
  ) {}

  /** The dispatch path's `approval` step. */
  async admit(call: ApprovalCall): Promise<void> {
    const { principal } = call;
    if (principal.kind !== 'user')
      throw new FrameworkError(
        'FORBIDDEN',
        'This call needs a person’s approval, which a machine credential cannot give.',
        {
          reason: 'principal_not_allowed',
        },
      );
    // The conversation's own signed approval (agents, A2A) was decided by this person for this call.
    if (call.conversationApproval) return;
    const digest = digestOf(call);
    if (call.approvalId === undefined) throw await this.open(call, principal, digest);
    await this.spend(call, principal, digest, call.approvalId);
  }

  /** Opens a pending approval and returns the refusal that names it. */
  private async open(call: ApprovalCall, principal: AuthenticatedPrincipal & { kind: 'user' }, digest: string) {
    const now = this.clock.now();
    const { operation } = call;
    const id = randomUUID();
    const expiresAt = new Date(now.getTime() + (operation.approval?.lifetimeMs ?? 0));
    try {
      await this.db.query(
        `INSERT INTO wildo_operation_approvals (id, requester_key, user_id, surface, operation, title, description, effect,
           organization_id, record_id, input_digest, arguments, input_schema, status, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'pending', $14, $15)`,
        [
          id,
          requesterKeyOf(principal),
          principal.userId,
          call.surface,
          operation.servicePath,
          this.titleOf(call),
          operation.description ?? null,
          operation.effect,
          call.organizationId ?? null,
          call.input.id ?? null,
          digest,
          JSON.stringify(call.input.body ?? call.input.query ?? {}),
          JSON.stringify(inputSchemaOf(call)),
          now,
          expiresAt,
        ],
      );
    } catch (error) {
      throw unavailable(error);
    }
    return new FrameworkError(
      'PRECONDITION_REQUIRED',
      'A person must approve this call first: approve it on the approvals page, then send the same call again with the approval’s id.',
      { reason: 'approval_required', approval: this.reference(id, expiresAt) },
    );
  }

  /** Spends a granted approval for this exact call, or says precisely why it cannot be spent. */
  private async spend(
    call: ApprovalCall,
    principal: AuthenticatedPrincipal & { kind: 'user' },
    digest: string,
    approvalId: string,
  ): Promise<void> {
    const now = this.clock.now();
    const requester = requesterKeyOf(principal);
    let spent: number;
    try {
      ({ affectedRows: spent } = await this.db.query(
        `UPDATE wildo_operation_approvals SET status = 'used', used_at = $5
          WHERE id = $1 AND requester_key = $2 AND operation = $3 AND input_digest = $4 AND status = 'approved' AND expires_at > $5`,
        [approvalId, requester, call.operation.servicePath, digest, now],
      ));
    } catch (error) {
      throw unavailable(error);
    }
    if (spent === 1) return;
    const row = await this.find(approvalId);
    // Another caller's approval is answered like a missing one: its existence is not revealed.
    if (!row || row.requester_key !== requester) throw invalid('No approval with this id was given for this caller.');
    if (row.operation !== call.operation.servicePath || row.input_digest !== digest)
      throw invalid('This approval was given for a different call; the input must be exactly the one approved.');
    if (row.status === 'used') throw invalid('This approval was already used; each approval runs one call.');
    if (row.status === 'denied')
      throw new FrameworkError('FORBIDDEN', 'A person denied this call.', { reason: 'approval_denied' });
    if (new Date(row.expires_at).getTime() <= now.getTime())
      throw invalid('This approval expired; send the call again to ask for a new one.');
    throw new FrameworkError('PRECONDITION_REQUIRED', 'This call still waits for a person’s decision.', {
      reason: 'approval_pending',
      approval: this.reference(row.id, new Date(row.expires_at)),
    });
  }

  /** The pending approvals a person decides (their own calls, unexpired), newest first. */
  async listPending(userId: string): Promise<OperationApprovalView[]> {
    const { rows } = await this.db.query<ApprovalRow>(
      `SELECT * FROM wildo_operation_approvals WHERE user_id = $1 AND status = 'pending' AND expires_at > $2
        ORDER BY created_at DESC LIMIT 200`,
      [userId, this.clock.now()],
    );
    return rows.map(viewOf);
  }

  /**
   * A person's decision on one of their pending approvals. Only a first-party session decides: a client application
   * acting for the person (a delegated token) cannot approve the calls it makes itself.
   */
  async decide(
    principal: AuthenticatedPrincipal,
    approvalId: string,
    decision: 'approve' | 'deny',
  ): Promise<OperationApprovalView> {
    if (principal.kind !== 'user' || principal.credential.type !== 'access_token')
      throw new FrameworkError('FORBIDDEN', 'Only the person, signed in to this application, can decide an approval.', {
        reason: 'principal_not_allowed',
      });
    const now = this.clock.now();
    const { rows } = await this.db.query<ApprovalRow>(
      `UPDATE wildo_operation_approvals SET status = $3, decided_at = $4
        WHERE id = $1 AND user_id = $2 AND status = 'pending' AND expires_at > $4 RETURNING *`,
      [approvalId, principal.userId, decision === 'approve' ? 'approved' : 'denied', now],
    );
    const decided = rows[0];
    if (decided) return viewOf(decided);
    const row = await this.find(approvalId);
    if (!row || row.user_id !== principal.userId) throw new FrameworkError('NOT_FOUND', 'No such approval.');
    if (row.status !== 'pending') throw new FrameworkError('CONFLICT', 'This approval was already decided.');
    throw invalid('This approval expired; the caller must send the call again.');
  }

  /**
   * The caller's own client answers for its person (MCP elicitation): decides a pending approval of this caller's.
   * Returns false when there is none pending (unknown, foreign, expired or already decided): the call then goes to
   * the approval step, which says why.
   */
  async answerFromClient(
    principal: AuthenticatedPrincipal,
    approvalId: string,
    decision: 'approve' | 'deny',
  ): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/.test(approvalId)) return false;
    try {
      const { affectedRows } = await this.db.query(
        `UPDATE wildo_operation_approvals SET status = $3, decided_at = $4
          WHERE id = $1 AND requester_key = $2 AND status = 'pending' AND expires_at > $4`,
        [approvalId, requesterKeyOf(principal), decision === 'approve' ? 'approved' : 'denied', this.clock.now()],
      );
      return affectedRows === 1;
    } catch (error) {
      throw unavailable(error);
    }
  }

  private async find(approvalId: string): Promise<ApprovalRow | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(approvalId)) return undefined;
    try {
      const { rows } = await this.db.query<ApprovalRow>('SELECT * FROM wildo_operation_approvals WHERE id = $1', [
        approvalId,
      ]);
      return rows[0];
    } catch (error) {
      throw unavailable(error);
    }
  }

  private reference(id: string, expiresAt: Date): ApprovalReference {
    return {
      id,
      status: 'pending',
      expiresAt: expiresAt.toISOString(),
      decideAt: this.pageUrl(`${APPROVALS_PAGE_PATH}#${id}`),
    };
  }
}

/** `Cancel (hotels)`: the operation's name, then its resource type. */
export function defaultTitle(call: ApprovalCall): string {
  const { operation } = call;
  const verb = operation.operation.charAt(0).toUpperCase() + operation.operation.slice(1).replace(/-/g, ' ');
  return `${verb} (${operation.resourceType})`;
}

function viewOf(row: ApprovalRow): OperationApprovalView {
  return {
    id: row.id,
    surface: row.surface,
    operation: row.operation,
    title: row.title,
    description: row.description,
    effect: row.effect,
    organizationId: row.organization_id,
    recordId: row.record_id,
    arguments: row.arguments,
    inputSchema: row.input_schema,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}
