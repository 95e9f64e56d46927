import { FrameworkError } from '../errors/index.js';
import type { UserPrincipal, UserSnapshot } from './principal.types.js';

const NONE: ReadonlyMap<string, string> = new Map();

/**
 * The memberships a person's credential may act through: all of theirs, or, for a token restricted to one
 * organization ({@link UserPrincipal.organizationRestriction}), that one only (and none once they left it).
 *
 * @example
 * const role = reachableMemberships(principal, snapshot).get(organizationId); // undefined: not found
 */
export function reachableMemberships(principal: UserPrincipal, snapshot: UserSnapshot): ReadonlyMap<string, string> {
  const restriction = principal.organizationRestriction;
  if (restriction === undefined) return snapshot.memberships;
  const role = snapshot.memberships.get(restriction);
  return role === undefined ? NONE : new Map([[restriction, role]]);
}

/** Whether the credential may reach application- and user-scoped operations (a restricted token may not). */
export function reachesBeyondOrganizations(principal: UserPrincipal): boolean {
  return principal.organizationRestriction === undefined;
}

/** The refusal of an application- or user-scoped operation to a token restricted to one organization. */
export function restrictedToOrganization(): FrameworkError {
  return new FrameworkError('FORBIDDEN', 'This credential acts within one organization only.', {
    reason: 'principal_not_allowed',
  });
}
