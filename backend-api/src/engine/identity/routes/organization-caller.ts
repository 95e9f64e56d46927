import type { Response } from 'express';
import { FrameworkError } from '../../errors/index.js';
import { requirePrincipal } from '../../routing/index.js';
import { readUserSnapshot, type PrincipalDirectory, type RoleHierarchyResolver } from '../index.js';

/** The signed-in person behind an identity request, and their role in the addressed organization. */
export interface OrganizationCaller {
  userId: string;
  /** The caller's role in the addressed organization; undefined when no organization is addressed. */
  role: string | undefined;
  appRoles: readonly string[];
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether a path segment can be an id at all (anything else is answered as not found). */
export function isWellFormedId(id: string): boolean {
  return ID.test(id);
}

/**
 * The caller of the identity routes (organizations, members, invitations): a person only, and for an
 * organization path a member of it (others get not-found, so the organization's existence is not revealed).
 */
export function createCallerResolver(directory: PrincipalDirectory, roles: RoleHierarchyResolver) {
  const caller = async (res: Response, organizationId?: string): Promise<OrganizationCaller> => {
    const principal = requirePrincipal(res);
    if (principal.kind !== 'user')
      throw new FrameworkError('FORBIDDEN', 'This endpoint is for signed-in users.', {
        reason: 'principal_not_allowed',
      });
    const snapshot = await readUserSnapshot(directory, principal.userId);
    const appRoles = snapshot?.appRoles ?? [];
    if (organizationId === undefined) return { userId: principal.userId, role: undefined, appRoles };
    const role = isWellFormedId(organizationId) ? snapshot?.memberships.get(organizationId) : undefined;
    if (!role) throw new FrameworkError('NOT_FOUND', 'No such organization.');
    return { userId: principal.userId, role, appRoles };
  };
  const requireRole = (held: string | undefined, required: string): void => {
    if (!held || !roles.satisfies([held], [required])) {
      throw new FrameworkError('FORBIDDEN', 'You are not allowed to perform this operation.', {
        reason: 'role_refused',
      });
    }
  };
  return { caller, requireRole };
}
