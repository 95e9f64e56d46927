import { randomUUID } from 'node:crypto';
import { CORE_ORG_ROLES, type InvitationStatus, type ReceivedInvitation, type SentInvitation } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { SqlDatabase, SqlExecutor } from '../persistence/index.js';
import type { RoleHierarchyResolver } from './role-hierarchy.service.js';
import type { IdentitySettings } from './identity-settings.js';
import type { IdentityMailer } from './identity-mailer.js';
import { invitationMail } from './identity-mails.js';
import {
  bumpAuthorizationVersion,
  insertMembership,
  lockOrganization,
  membershipRoleOf,
} from './membership-statements.js';
import type { PrincipalDirectory } from './principal-directory.js';
import { normalizeEmail } from './users.service.js';

interface InvitationRow {
  id: string;
  organization_id: string;
  email_normalized: string;
  role: string;
  status: InvitationStatus;
  invited_by_user_id: string | null;
  decided_by_user_id: string | null;
  created_at: Date | string;
  expires_at: Date | string;
  decided_at: Date | string | null;
}

interface ReceivedRow extends InvitationRow {
  organization_name: string;
  inviter_name: string | null;
  inviter_email: string | null;
}

/** The outcome of an acceptance: the organization joined and the person's authorization version now. */
export interface AcceptedInvitation {
  organizationId: string;
  authorizationVersion: number;
}

/** The organization role an inviter must hold (they grant at most their own role). */
const INVITER_ROLE = CORE_ORG_ROLES.ORG_ADMIN;
/** Sent invitations listed per organization, newest first. */
const SENT_LIST_LIMIT = 500;
const COLUMNS =
  'i.id, i.organization_id, i.email_normalized, i.role, i.status, i.invited_by_user_id, i.decided_by_user_id, i.created_at, i.expires_at, i.decided_at';

const noSuchInvitation = () => new FrameworkError('NOT_FOUND', 'No such invitation.');
const roleRefused = () =>
  new FrameworkError('FORBIDDEN', 'You are not allowed to perform this operation.', { reason: 'role_refused' });
const notOpen = () =>
  new FrameworkError('CONFLICT', 'This invitation is no longer open: it was answered, revoked or has expired.');

/**
 * Invitations to organizations. Membership is never granted by someone else: an admin invites an email with a
 * role within their own ceiling, and the address gets a mail; only the signed-in account whose normalized email
 * matches, and which proved that address through a mailed link, sees, accepts or declines it (an account that has
 * not proved its address is answered as for an unknown invitation). Creating an invitation answers the same whether or
 * not an account exists for the email. Accepting is one transaction (invitation state, membership, authorization
 * version), followed by a principal-directory invalidation on every replica.
 */
@injectable()
export class InvitationsService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.PrincipalDirectory) private readonly directory: PrincipalDirectory,
    @inject(SAAS_SERVICE_TYPES.RoleHierarchyResolver) private readonly roles: RoleHierarchyResolver,
    @inject(SAAS_SERVICE_TYPES.IdentitySettings) private readonly settings: IdentitySettings,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.IdentityMailer) private readonly mailer: IdentityMailer,
  ) {}

  /** Refuses a caller whose role in the organization may not invite at all (checked before the request is read). */
  assertMayInvite(inviterRole: string | undefined): void {
    if (!this.mayInvite(inviterRole)) throw roleRefused();
  }

  /** Invites `email` with `role`; `inviter.role` is the inviter's role in the organization. */
  async invite(
    organizationId: string,
    inviter: { userId: string; role: string | undefined },
    email: string,
    role: string,
  ): Promise<SentInvitation> {
    if (!this.mayGrant(inviter.role, role)) throw roleRefused();
    const normalized = normalizeEmail(email);
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      if (!(await lockOrganization(tx, organizationId))) throw new FrameworkError('NOT_FOUND', 'No such organization.');
      // The admin already sees every member's email in the member list: this reveals nothing new.
      const member = await tx.query(
        'SELECT 1 FROM wildo_memberships m JOIN wildo_users u ON u.id = m.user_id WHERE m.organization_id = $1 AND u.email_normalized = $2',
        [organizationId, normalized],
      );
      if (member.rows.length > 0)
        throw new FrameworkError('CONFLICT', 'This email already belongs to a member of the organization.');
      await tx.query(
        `UPDATE wildo_invitations SET status = 'expired' WHERE organization_id = $1 AND email_normalized = $2 AND status = 'pending' AND expires_at <= $3`,
        [organizationId, normalized, now],
      );
      const expiresAt = new Date(now.getTime() + this.settings.invitationLifetimeDays * 86_400_000);
      const { rows } = await tx.query<InvitationRow>(
        `INSERT INTO wildo_invitations AS i (id, organization_id, email_normalized, role, status, invited_by_user_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7)
         ON CONFLICT (organization_id, email_normalized) WHERE status = 'pending' DO NOTHING RETURNING ${COLUMNS}`,
        [randomUUID(), organizationId, normalized, role, inviter.userId, now, expiresAt],
      );
      if (!rows[0])
        throw new FrameworkError(
          'CONFLICT',
          'An invitation to this email is already pending: revoke it to send another.',
        );
      return rows[0];
    });
    await this.mailInvitation(email, row);
    return this.toSent(row);
  }

  /** Tells the address about its invitation (a failed mail is logged: the invitation also waits on its page). */
  private async mailInvitation(email: string, row: InvitationRow): Promise<void> {
    const { rows } = await this.db.query<{ organization_name: string; inviter: string | null }>(
      `SELECT o.name AS organization_name, COALESCE(u.display_name, u.email) AS inviter
       FROM wildo_organizations o LEFT JOIN wildo_users u ON u.id = $2 WHERE o.id = $1`,
      [row.organization_id, row.invited_by_user_id],
    );
    const facts = rows[0];
    if (!facts) return;
    const mail = invitationMail(
      email.trim(),
      {
        organizationName: facts.organization_name,
        invitedBy: facts.inviter ?? 'An administrator',
        role: row.role,
        days: this.settings.invitationLifetimeDays,
      },
      { invitations: this.mailer.pageUrl('/account/invitations'), signup: this.mailer.pageUrl('/signup') },
      this.mailer.context(),
    );
    await this.mailer.notify(mail);
  }

  /** The organization's invitations with their status, newest first. */
  async listSent(organizationId: string): Promise<SentInvitation[]> {
    const { rows } = await this.db.query<InvitationRow>(
      `SELECT ${COLUMNS} FROM wildo_invitations i WHERE i.organization_id = $1 ORDER BY i.created_at DESC, i.id LIMIT ${SENT_LIST_LIMIT}`,
      [organizationId],
    );
    return rows.map((row) => this.toSent(row));
  }

  /** Revokes a pending invitation of the organization. */
  async revoke(organizationId: string, invitationId: string): Promise<SentInvitation> {
    const now = this.clock.now();
    const { rows } = await this.db.query<InvitationRow>(
      `UPDATE wildo_invitations i SET status = 'revoked', decided_at = $3
       WHERE i.id = $1 AND i.organization_id = $2 AND i.status = 'pending' AND i.expires_at > $3 RETURNING ${COLUMNS}`,
      [invitationId, organizationId, now],
    );
    if (rows[0]) return this.toSent(rows[0]);
    const existing = await this.db.query('SELECT 1 FROM wildo_invitations WHERE id = $1 AND organization_id = $2', [
      invitationId,
      organizationId,
    ]);
    throw existing.rows.length > 0 ? notOpen() : noSuchInvitation();
  }

  /** The open invitations addressed to this account's email, oldest first. */
  async listReceived(userId: string): Promise<ReceivedInvitation[]> {
    const { rows } = await this.db.query<ReceivedRow>(
      `SELECT ${COLUMNS}, o.name AS organization_name, inviter.display_name AS inviter_name, inviter.email AS inviter_email
       FROM wildo_users me
       JOIN wildo_invitations i ON i.email_normalized = me.email_normalized
       JOIN wildo_organizations o ON o.id = i.organization_id
       LEFT JOIN wildo_users inviter ON inviter.id = i.invited_by_user_id
       WHERE me.id = $1 AND me.email_verified_at IS NOT NULL AND i.status = 'pending' AND i.expires_at > $2
       ORDER BY i.created_at, i.id`,
      [userId, this.clock.now()],
    );
    return rows.map(toReceived);
  }

  /**
   * Accepts an invitation addressed to this account: membership, invitation state and authorization version in one
   * transaction. Accepting again what this account already accepted answers the same, without a second change.
   */
  async accept(userId: string, invitationId: string): Promise<AcceptedInvitation> {
    const found = await this.addressedTo(this.db, userId, invitationId);
    const result = await this.db.transaction(async (tx) => {
      // Organization first, then the invitation: the same lock order as inviting.
      await lockOrganization(tx, found.organization_id);
      const invitation = await this.addressedTo(tx, userId, invitationId, true);
      const now = this.clock.now();
      if (invitation.status === 'accepted' && invitation.decided_by_user_id === userId)
        return this.alreadyAccepted(tx, invitation, userId);
      if (!this.isOpen(invitation, now)) throw notOpen();
      // The inviter's authority is checked again: a demoted or departed admin's invitations no longer grant anything.
      const inviterRole = invitation.invited_by_user_id
        ? await membershipRoleOf(tx, invitation.organization_id, invitation.invited_by_user_id)
        : undefined;
      if (!this.mayGrant(inviterRole, invitation.role))
        throw new FrameworkError(
          'CONFLICT',
          'This invitation is no longer valid: ask an administrator of the organization to invite you again.',
        );
      await tx.query(
        `UPDATE wildo_invitations SET status = 'accepted', decided_by_user_id = $2, decided_at = $3 WHERE id = $1`,
        [invitation.id, userId, now],
      );
      const joined = await insertMembership(tx, invitation.organization_id, userId, invitation.role, now);
      const authorizationVersion = joined
        ? await bumpAuthorizationVersion(tx, userId, now)
        : await currentVersion(tx, userId);
      return { organizationId: invitation.organization_id, authorizationVersion };
    });
    await this.directory.invalidate(userId);
    return result;
  }

  /** Declines an invitation addressed to this account (declining it again answers the same). */
  async decline(userId: string, invitationId: string): Promise<{ _id: string; status: 'declined' }> {
    await this.db.transaction(async (tx) => {
      const invitation = await this.addressedTo(tx, userId, invitationId, true);
      const now = this.clock.now();
      if (invitation.status === 'declined' && invitation.decided_by_user_id === userId) return;
      if (!this.isOpen(invitation, now)) throw notOpen();
      await tx.query(
        `UPDATE wildo_invitations SET status = 'declined', decided_by_user_id = $2, decided_at = $3 WHERE id = $1`,
        [invitation.id, userId, now],
      );
    });
    return { _id: invitationId, status: 'declined' };
  }

  private mayInvite(inviterRole: string | undefined): inviterRole is string {
    return inviterRole !== undefined && this.roles.satisfies([inviterRole], [INVITER_ROLE]);
  }

  /** Whether this role may grant `role`: inviting needs {@link INVITER_ROLE}, and nobody grants above their own role. */
  private mayGrant(inviterRole: string | undefined, role: string): boolean {
    return this.mayInvite(inviterRole) && this.roles.isWithin(role, [inviterRole]);
  }

  // Another account's invitation, or one to an address this account has not proved, is answered like an unknown one.
  private async addressedTo(
    tx: SqlExecutor,
    userId: string,
    invitationId: string,
    lock = false,
  ): Promise<InvitationRow> {
    const { rows } = await tx.query<InvitationRow>(
      `SELECT ${COLUMNS} FROM wildo_invitations i JOIN wildo_users me ON me.email_normalized = i.email_normalized
       WHERE i.id = $1 AND me.id = $2 AND me.email_verified_at IS NOT NULL${lock ? ' FOR UPDATE OF i' : ''}`,
      [invitationId, userId],
    );
    if (!rows[0]) throw noSuchInvitation();
    return rows[0];
  }

  private async alreadyAccepted(
    tx: SqlExecutor,
    invitation: InvitationRow,
    userId: string,
  ): Promise<AcceptedInvitation> {
    // Only while the membership it created lasts: after leaving, the old invitation does not let anyone back in.
    if (!(await membershipRoleOf(tx, invitation.organization_id, userId))) throw notOpen();
    return { organizationId: invitation.organization_id, authorizationVersion: await currentVersion(tx, userId) };
  }

  private isOpen(invitation: InvitationRow, now: Date): boolean {
    return invitation.status === 'pending' && new Date(invitation.expires_at).getTime() > now.getTime();
  }

  private toSent(row: InvitationRow): SentInvitation {
    const expired = row.status === 'expired' || (row.status === 'pending' && !this.isOpen(row, this.clock.now()));
    return {
      _id: row.id,
      organizationId: row.organization_id,
      email: row.email_normalized,
      role: row.role,
      status: expired ? 'expired' : row.status,
      createdAt: iso(row.created_at),
      expiresAt: iso(row.expires_at),
      decidedAt: row.decided_at === null ? null : iso(row.decided_at),
    };
  }
}

async function currentVersion(tx: SqlExecutor, userId: string): Promise<number> {
  const { rows } = await tx.query<{ authorization_version: number }>(
    'SELECT authorization_version FROM wildo_users WHERE id = $1',
    [userId],
  );
  return rows[0]?.authorization_version ?? 0;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function toReceived(row: ReceivedRow): ReceivedInvitation {
  return {
    _id: row.id,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    role: row.role,
    invitedBy: row.inviter_name ?? row.inviter_email,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
  };
}
