import { CORE_ORG_ROLES } from '@wildo/shared-lib';
import { FrameworkError } from '../errors/index.js';
import type { SqlExecutor } from '../persistence/index.js';

/**
 * Statements every membership change shares (invitations, role changes, removals, leaving), run inside the
 * caller's transaction so a change and its authorization-version bump commit together.
 */

/** Serializes membership changes of one organization (two demotions cannot both pass the last-admin check); false when it does not exist. */
export async function lockOrganization(tx: SqlExecutor, organizationId: string): Promise<boolean> {
  const { rows } = await tx.query('SELECT id FROM wildo_organizations WHERE id = $1 FOR UPDATE', [organizationId]);
  return rows.length > 0;
}

/** The member's role in the organization, or undefined for a non-member. */
export async function membershipRoleOf(
  tx: SqlExecutor,
  organizationId: string,
  userId: string,
): Promise<string | undefined> {
  const { rows } = await tx.query<{ role: string }>(
    'SELECT role FROM wildo_memberships WHERE organization_id = $1 AND user_id = $2',
    [organizationId, userId],
  );
  return rows[0]?.role;
}

/** Adds a membership; false when the user already was a member (their role is left as it is). */
export async function insertMembership(
  tx: SqlExecutor,
  organizationId: string,
  userId: string,
  role: string,
  now: Date,
): Promise<boolean> {
  const { affectedRows } = await tx.query(
    `INSERT INTO wildo_memberships (organization_id, user_id, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (organization_id, user_id) DO NOTHING`,
    [organizationId, userId, role, now],
  );
  return affectedRows > 0;
}

/** Refuses a change that would leave the organization without an ORG_ADMIN other than `userId`. */
export async function assertAnotherAdmin(tx: SqlExecutor, organizationId: string, userId: string): Promise<void> {
  const { rows } = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM wildo_memberships WHERE organization_id = $1 AND role = $2 AND user_id <> $3',
    [organizationId, CORE_ORG_ROLES.ORG_ADMIN, userId],
  );
  if ((rows[0]?.n ?? 0) === 0) {
    throw new FrameworkError(
      'CONFLICT',
      'An organization needs at least one ORG_ADMIN: make another member ORG_ADMIN first.',
    );
  }
}

/** Bumps a user's authorization version (their outstanding tokens stop working); returns the new version. */
export async function bumpAuthorizationVersion(tx: SqlExecutor, userId: string, now: Date): Promise<number> {
  const { rows } = await tx.query<{ authorization_version: number }>(
    'UPDATE wildo_users SET authorization_version = authorization_version + 1, updated_at = $2 WHERE id = $1 RETURNING authorization_version',
    [userId, now],
  );
  const version = rows[0]?.authorization_version;
  if (version === undefined) throw new FrameworkError('NOT_FOUND', 'No such user.');
  return version;
}
