import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { SqlDatabase, SqlExecutor } from '../persistence/index.js';
import type { AuditRecorder, DispatchRecord } from '../resources/index.js';

/** How a call ended: it ran, a rule refused it, or it failed (the server, a backend, a broken result contract). */
export type AuditOutcome = 'executed' | 'refused' | 'failed';

/** One entry of the audit trail: who called what, where, how it ended and how long it took; never a value. */
export interface AuditEntry {
  seq: string;
  at: string;
  /** The operation's service path (`refunds.issue`). */
  operation: string;
  surface: string;
  /** The dispatch step the call ended in (`policy`, `approval`, `service`; `projection` when it ran). */
  phase: string;
  outcome: AuditOutcome;
  /** The framework's error code, when it did not run. */
  code: string | null;
  /** The refusal reason (`role_refused`, `approval_required`, ...), when a rule refused it. */
  reason: string | null;
  /** `user:<id>`, `user:<id>|client:<id>` (a person through a client application) or `client:<id>` (a machine). */
  principal: string | null;
  organizationId: string | null;
  /** The declared rule that refused (`roles`, `policies.deny`, `approval`, ...). */
  policyRule: string | null;
  /** The HTTP status a connector's backend answered with, when it failed there. */
  backendStatus: number | null;
  durationMs: number;
  requestId: string;
  approvalId: string | null;
  /** Its place in the chain, once sealed. */
  chainIndex: string | null;
}

/** What the chain check found. */
export interface AuditChainReport {
  ok: boolean;
  /** Entries checked (sealed ones). */
  sealed: number;
  /** Entries appended but not chained yet (the sealer chains them within moments). */
  unsealed: number;
  /** The first entry whose link does not hold, and why (edited, removed, reordered, or a removed tail). */
  firstBroken?: { chainIndex: string; seq: string | null; problem: string };
}

/** Filters of the audit query (each optional); `cursor` continues a previous page. */
export interface AuditQuery {
  from?: Date;
  to?: Date;
  operation?: string;
  principal?: string;
  outcome?: AuditOutcome;
  reason?: string;
  limit: number;
  cursor?: string;
}

interface EntryRow {
  seq: string;
  at: Date;
  operation: string;
  surface: string;
  phase: string;
  outcome: AuditOutcome;
  code: string | null;
  reason: string | null;
  principal: string | null;
  organization_id: string | null;
  policy_rule: string | null;
  backend_status: number | null;
  duration_ms: number;
  request_id: string;
  approval_id: string | null;
  chain_index: string | null;
  hash: string | null;
}

type NewEntry = Omit<EntryRow, 'seq' | 'chain_index' | 'hash'>;

const COLUMNS = [
  'at',
  'operation',
  'surface',
  'phase',
  'outcome',
  'code',
  'reason',
  'principal',
  'organization_id',
  'policy_rule',
  'backend_status',
  'duration_ms',
  'request_id',
  'approval_id',
] as const;

/** The most entries one INSERT carries (PostgreSQL allows 65535 parameters). */
const MAX_BATCH = 500;
/** The most entries one sealing pass chains. */
const SEAL_BATCH = 1_000;
/** How long appended entries wait to be chained: one sealing pass covers every call of that span. */
const SEAL_DELAY_MS = 250;

/** Codes that say the call failed rather than a rule refusing it. */
const FAILURE_CODES = new Set(['INTERNAL', 'UPSTREAM_FAILED', 'CONTRACT_VIOLATION', 'NOT_IMPLEMENTED']);

/** The declared rule behind a refusal reason, for the entry's `policyRule`. */
function policyRuleOf(phase: string, reason: string | undefined): string | null {
  switch (reason) {
    case 'principal_denied':
      return 'policies.deny';
    case 'principal_not_allowed':
      return phase === 'approval' ? 'approval' : 'policies.allow';
    case 'rate_limit_exceeded':
      return phase === 'policy' ? 'policies.rateLimit' : 'rateLimit';
    case 'role_refused':
      return 'roles';
    case 'lifecycle_blocked':
      return 'lifecycle';
    case 'step_up_required':
      return 'requiresReauthentication';
    case undefined:
      return null;
    default:
      return reason.startsWith('approval_') ? 'approval' : null;
  }
}

function principalOf(record: DispatchRecord): string | null {
  const principal = record.request.principal;
  if (!principal) return null;
  if (principal.kind === 'machine') return `client:${principal.clientId}`;
  const via = principal.credential.authorizedParty;
  return via ? `user:${principal.userId}|client:${via}` : `user:${principal.userId}`;
}

function entryOf(record: DispatchRecord, at: Date): NewEntry {
  const { request, error, phase } = record;
  const framework = error instanceof FrameworkError ? error : undefined;
  const outcome: AuditOutcome =
    error === undefined ? 'executed' : !framework || FAILURE_CODES.has(framework.code) ? 'failed' : 'refused';
  return {
    at,
    operation: request.operation.servicePath,
    surface: request.surface,
    phase,
    outcome,
    code: error === undefined ? null : (framework?.code ?? 'INTERNAL'),
    reason: framework?.reason ?? null,
    principal: principalOf(record),
    organization_id: request.contextIds.organizationId ?? null,
    policy_rule: policyRuleOf(phase, framework?.reason),
    backend_status: framework?.upstreamStatus ?? null,
    duration_ms: Math.round(record.durationMs * 1000) / 1000,
    request_id: request.requestId,
    approval_id: request.approvalId ?? request.conversationApproval?.approvalId ?? null,
  };
}

/** The sealed content of an entry, in one fixed order: what its hash covers. */
function material(row: EntryRow, chainIndex: string, previous: string): string {
  return JSON.stringify([
    chainIndex,
    previous,
    row.seq,
    new Date(row.at).toISOString(),
    row.operation,
    row.surface,
    row.phase,
    row.outcome,
    row.code,
    row.reason,
    row.principal,
    row.organization_id,
    row.policy_rule,
    row.backend_status,
    row.duration_ms,
    row.request_id,
    row.approval_id,
  ]);
}

interface Waiter {
  entry: NewEntry;
  resolve: () => void;
}

/**
 * The audit trail of every dispatched call, in the application's database. Appending takes no lock shared between
 * requests: entries wait a moment in memory and go in together, one INSERT per batch (group commit), and each call
 * that changes data is answered only once its entry is stored (a read or a refusal is answered at once; its entry
 * follows in the next batch, and closing the backend waits for it). A sealer then chains stored entries in one order under a row lock on
 * the chain's head (so replicas take turns): each gets the next `chain_index` and an HMAC over its content and the
 * previous entry's hash, under a key derived from the primary secret. {@link verify} walks the sealed chain and
 * names the first entry whose link does not hold: an edited entry, a removed one (its successor's link breaks, or
 * the head names a link that is gone), or a reordered one. A trigger refuses updates and deletes in the first place.
 */
export class AuditTrail implements AuditRecorder {
  private queue: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  private sealing: Promise<void> | undefined;
  private resealRequested = false;
  private sealTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: SqlDatabase,
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Stores the entry of one call; resolves once it is in the database. */
  record(record: DispatchRecord): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push({ entry: entryOf(record, this.clock.now()), resolve });
      this.flushing ??= this.flushSoon();
    });
  }

  /** Appends what waits, batch after batch, until nothing waits; then chains it behind the answers. */
  private async flushSoon(): Promise<void> {
    // Calls answered in the same turn of the event loop share one INSERT.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.append(batch.map((w) => w.entry));
      } catch (error) {
        // An entry that cannot be stored is logged whole (it holds no value), so the loss is visible.
        this.logger.error('audit entries could not be stored', {
          error,
          entries: batch.map((w) => ({ ...w.entry, at: w.entry.at.toISOString() })),
        });
      }
      for (const waiter of batch) waiter.resolve();
    }
    this.flushing = undefined;
    this.sealTimer ??= setTimeout(() => {
      this.sealTimer = undefined;
      void this.sealSoon();
    }, SEAL_DELAY_MS).unref();
  }

  private async append(entries: readonly NewEntry[]): Promise<void> {
    const params: unknown[] = [];
    const rows = entries.map((entry) => {
      const start = params.length;
      for (const column of COLUMNS) params.push(entry[column]);
      return `(${COLUMNS.map((_c, i) => `$${start + i + 1}`).join(', ')})`;
    });
    await this.db.query(`INSERT INTO wildo_audit_entries (${COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`, params);
  }

  /** Chains what was appended, one pass at a time; a request during a pass runs one more pass after it. */
  private sealSoon(): Promise<void> {
    if (this.sealing) {
      this.resealRequested = true;
      return this.sealing;
    }
    this.sealing = (async () => {
      do {
        this.resealRequested = false;
        try {
          while ((await this.sealPass()) === SEAL_BATCH);
        } catch (error) {
          this.logger.warn('audit entries could not be sealed yet; the next pass retries', { error });
        }
      } while (this.resealRequested);
      this.sealing = undefined;
    })();
    return this.sealing;
  }

  /** Waits for every entry recorded so far to be stored and sealed. */
  async settle(): Promise<void> {
    while (this.flushing) await this.flushing;
    clearTimeout(this.sealTimer);
    this.sealTimer = undefined;
    await this.sealSoon();
  }

  /** One sealing pass: chains up to {@link SEAL_BATCH} unsealed entries in `seq` order; returns how many. */
  private sealPass(): Promise<number> {
    return this.db.transaction(async (tx) => {
      const { rows: heads } = await tx.query<{ chain_index: string; hash: string }>(
        'SELECT chain_index, hash FROM wildo_audit_head WHERE id = 1 FOR UPDATE',
      );
      const head = heads[0];
      if (!head) throw new Error('the audit head row is missing');
      const { rows } = await tx.query<EntryRow>(
        `SELECT * FROM wildo_audit_entries WHERE chain_index IS NULL ORDER BY seq LIMIT ${SEAL_BATCH}`,
      );
      if (rows.length === 0) return 0;
      let index = BigInt(head.chain_index);
      let previous = head.hash;
      const seqs: string[] = [];
      const indexes: string[] = [];
      const hashes: string[] = [];
      for (const row of rows) {
        index += 1n;
        previous = this.hash(material(row, String(index), previous));
        seqs.push(String(row.seq));
        indexes.push(String(index));
        hashes.push(previous);
      }
      await this.sealRows(tx, seqs, indexes, hashes);
      await tx.query('UPDATE wildo_audit_head SET chain_index = $1, hash = $2 WHERE id = 1', [String(index), previous]);
      return rows.length;
    });
  }

  private async sealRows(tx: SqlExecutor, seqs: string[], indexes: string[], hashes: string[]): Promise<void> {
    await tx.query(
      `UPDATE wildo_audit_entries AS e SET chain_index = s.chain_index, hash = s.hash
         FROM (SELECT unnest($1::bigint[]) AS seq, unnest($2::bigint[]) AS chain_index, unnest($3::text[]) AS hash) AS s
        WHERE e.seq = s.seq`,
      [seqs, indexes, hashes],
    );
  }

  private hash(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  /** The chain check: seals what waits, then walks every sealed entry; names the first link that does not hold. */
  async verify(): Promise<AuditChainReport> {
    await this.settle();
    const { rows: heads } = await this.db.query<{ chain_index: string; hash: string }>(
      'SELECT chain_index, hash FROM wildo_audit_head WHERE id = 1',
    );
    const head = heads[0] ?? { chain_index: '0', hash: '' };
    let expected = 1n;
    let previous = '';
    let after = 0n;
    for (;;) {
      const { rows } = await this.db.query<EntryRow>(
        `SELECT * FROM wildo_audit_entries WHERE chain_index > $1 ORDER BY chain_index LIMIT 1000`,
        [String(after)],
      );
      for (const row of rows) {
        const index = BigInt(row.chain_index ?? '0');
        const broken = (problem: string): AuditChainReport => ({
          ok: false,
          sealed: Number(expected - 1n),
          unsealed: 0,
          firstBroken: { chainIndex: String(expected), seq: index === expected ? String(row.seq) : null, problem },
        });
        if (index !== expected) return broken('an entry is missing here: the chain skips from the one before');
        const computed = this.hash(material(row, String(index), previous));
        if (!equal(computed, row.hash ?? '')) return broken('this entry was changed after it was sealed');
        previous = computed;
        expected += 1n;
      }
      if (rows.length < 1000) break;
      after = BigInt(rows[rows.length - 1]?.chain_index ?? '0');
    }
    const sealed = expected - 1n;
    if (String(sealed) !== String(head.chain_index) || previous !== head.hash) {
      return {
        ok: false,
        sealed: Number(sealed),
        unsealed: 0,
        firstBroken: {
          chainIndex: String(sealed + 1n),
          seq: null,
          problem: 'the chain ends before its head: sealed entries were removed from its end',
        },
      };
    }
    const { rows: waiting } = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM wildo_audit_entries WHERE chain_index IS NULL',
    );
    return { ok: true, sealed: Number(sealed), unsealed: Number(waiting[0]?.n ?? 0) };
  }

  /** A page of entries, newest first, matching every filter given. */
  async query(query: AuditQuery): Promise<{ data: AuditEntry[]; nextCursor: string | null }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (query.from) add('at >= ?', query.from);
    if (query.to) add('at < ?', query.to);
    if (query.operation) add('operation = ?', query.operation);
    if (query.principal) add('principal = ?', query.principal);
    if (query.outcome) add('outcome = ?', query.outcome);
    if (query.reason) add('reason = ?', query.reason);
    if (query.cursor) add('seq < ?', query.cursor);
    params.push(query.limit + 1);
    const { rows } = await this.db.query<EntryRow>(
      `SELECT * FROM wildo_audit_entries ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY seq DESC LIMIT $${params.length}`,
      params,
    );
    const page = rows.slice(0, query.limit);
    return {
      data: page.map(viewOf),
      nextCursor: rows.length > query.limit ? String(page[page.length - 1]?.seq) : null,
    };
  }
}

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function viewOf(row: EntryRow): AuditEntry {
  return {
    seq: String(row.seq),
    at: new Date(row.at).toISOString(),
    operation: row.operation,
    surface: row.surface,
    phase: row.phase,
    outcome: row.outcome,
    code: row.code,
    reason: row.reason,
    principal: row.principal,
    organizationId: row.organization_id,
    policyRule: row.policy_rule,
    backendStatus: row.backend_status,
    durationMs: Number(row.duration_ms),
    requestId: row.request_id,
    approvalId: row.approval_id,
    chainIndex: row.chain_index === null ? null : String(row.chain_index),
  };
}
