import { randomUUID } from 'node:crypto';
import { CORE_ORG_ROLES } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import type { PublicMember, PublicOrganization } from './identity.schema.js';
import {
  assertAnotherAdmin,
  bumpAuthorizationVersion,
  insertMembership,
  lockOrganization,
  membershipRoleOf,
} from './membership-statements.js';
import type { PrincipalDirectory } from './principal-directory.js';

interface OrgRow {
  id: string;
  name: string;
  role: string;
  created_at: Date | string;
}

interface MemberRow {
  user_id: string;
  email: string;
  display_name: string | null;
  role: string;
  created_at: Date | string;
}

/**
 * Organizations (tenants) and memberships. Creating an organization makes its creator ORG_ADMIN in the same
 * transaction; anyone else joins by accepting an invitation (`InvitationsService`). Changing or ending a
 * membership bumps the member's authorization version, so their outstanding tokens stop working. An
 * organization always keeps at least one ORG_ADMIN.
 */
@injectable()
export class OrganizationsService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.PrincipalDirectory) private readonly directory: PrincipalDirectory,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** Creates an organization with its creator as ORG_ADMIN. */
  async create(userId: string, name: string): Promise<PublicOrganization> {
    const id = randomUUID();
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await tx.query(
        'INSERT INTO wildo_organizations (id, name, created_by_user_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
        [id, name, userId, now],
      );
      await insertMembership(tx, id, userId, CORE_ORG_ROLES.ORG_ADMIN, now);
    });
    await this.directory.invalidate(userId);
    return { _id: id, name, role: CORE_ORG_ROLES.ORG_ADMIN, createdAt: now.toISOString() };
  }

  /** The organizations a user belongs to, with their role in each. */
  async listForUser(userId: string): Promise<PublicOrganization[]> {
    const { rows } = await this.db.query<OrgRow>(
      `SELECT o.id, o.name, m.role, o.created_at FROM wildo_memberships m JOIN wildo_organizations o ON o.id = m.organization_id
       WHERE m.user_id = $1 ORDER BY o.created_at, o.id`,
      [userId],
    );
    return rows.map(toOrganization);
  }

  /** One organization as a member sees it, or null when the user is not a member. */
  async getForMember(organizationId: string, userId: string): Promise<PublicOrganization | null> {
    const { rows } = await this.db.query<OrgRow>(
      `SELECT o.id, o.name, m.role, o.created_at FROM wildo_memberships m JOIN wildo_organizations o ON o.id = m.organization_id
       WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, userId],
    );
    return rows[0] ? toOrganization(rows[0]) : null;
  }

  /** Every member of an organization. */
  async listMembers(organizationId: string): Promise<PublicMember[]> {
    const { rows } = await this.db.query<MemberRow>(
      `SELECT m.user_id, u.email, u.display_name, m.role, m.created_at FROM wildo_memberships m JOIN wildo_users u ON u.id = m.user_id
       WHERE m.organization_id = $1 ORDER BY m.created_at, m.user_id`,
      [organizationId],
    );
    return rows.map(toMember);
  }

  /**
   * Changes a member's role (never leaving the organization without an ORG_ADMIN). `mayChangeFrom` refuses a
   * member whose current role is beyond the caller's ceiling; it is read under the organization's lock, so a
   * concurrent promotion cannot slip past it.
   */
  async changeRole(
    organizationId: string,
    userId: string,
    role: string,
    mayChangeFrom: (currentRole: string) => boolean = () => true,
  ): Promise<PublicMember> {
    await this.db.transaction(async (tx) => {
      await lockOrganization(tx, organizationId);
      const current = await membershipRoleOf(tx, organizationId, userId);
      if (!current) throw new FrameworkError('NOT_FOUND', 'No such member.');
      if (!mayChangeFrom(current))
        throw new FrameworkError('FORBIDDEN', 'You are not allowed to perform this operation.', {
          reason: 'role_refused',
        });
      if (current === role) return;
      if (current === CORE_ORG_ROLES.ORG_ADMIN) await assertAnotherAdmin(tx, organizationId, userId);
      const now = this.clock.now();
      await tx.query(
        'UPDATE wildo_memberships SET role = $3, updated_at = $4 WHERE organization_id = $1 AND user_id = $2',
        [organizationId, userId, role, now],
      );
      await bumpAuthorizationVersion(tx, userId, now);
    });
    await this.directory.invalidate(userId);
    return this.memberOrThrow(organizationId, userId);
  }

  /**
   * Ends a membership: an admin removing a member, or a member leaving (never the last ORG_ADMIN). Returns the
   * person's new authorization version: their outstanding tokens, delegated ones included, stop working.
   */
  async removeMember(organizationId: string, userId: string): Promise<number> {
    const version = await this.db.transaction(async (tx) => {
      await lockOrganization(tx, organizationId);
      const current = await membershipRoleOf(tx, organizationId, userId);
      if (!current) throw new FrameworkError('NOT_FOUND', 'No such member.');
      if (current === CORE_ORG_ROLES.ORG_ADMIN) await assertAnotherAdmin(tx, organizationId, userId);
      await tx.query('DELETE FROM wildo_memberships WHERE organization_id = $1 AND user_id = $2', [
        organizationId,
        userId,
      ]);
      return bumpAuthorizationVersion(tx, userId, this.clock.now());
    });
    await this.directory.invalidate(userId);
    return version;
  }

  private async memberOrThrow(organizationId: string, userId: string): Promise<PublicMember> {
    const { rows } = await this.db.query<MemberRow>(
      `SELECT m.user_id, u.email, u.display_name, m.role, m.created_at FROM wildo_memberships m JOIN wildo_users u ON u.id = m.user_id
       WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, userId],
    );
    if (!rows[0]) throw new FrameworkError('NOT_FOUND', 'No such member.');
    return toMember(rows[0]);
  }
}

function toOrganization(row: OrgRow): PublicOrganization {
  return { _id: row.id, name: row.name, role: row.role, createdAt: new Date(row.created_at).toISOString() };
}

function toMember(row: MemberRow): PublicMember {
  return {
    userId: row.user_id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
