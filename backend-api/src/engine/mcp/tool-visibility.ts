import { ExecutionContext_ExecutionType, ResourcePrimaryScope } from '@wildo/shared-lib';
import {
  reachableMemberships,
  reachesBeyondOrganizations,
  type AuthenticatedPrincipal,
  type RoleHierarchyResolver,
  type UserSnapshot,
} from '../identity/index.js';
import type { McpToolEntry } from './tool-catalogue.service.js';

/**
 * Whether a caller could use a tool somewhere: a person through any of the organizations their credential
 * reaches (or their application roles, unless it is restricted to one organization), a machine within its own
 * scope. The catalogue lists these; calling still authorizes.
 */
export function isToolVisible(
  entry: McpToolEntry,
  principal: AuthenticatedPrincipal,
  snapshot: UserSnapshot | null,
  roles: RoleHierarchyResolver,
): boolean {
  const operation = entry.resource?.operation;
  if (!operation) return true;
  if (principal.kind === 'machine') {
    if (operation.scope === ResourcePrimaryScope.ORGANIZATIONS)
      return principal.organizationId !== undefined && roles.satisfies(principal.roles, operation.roles);
    if (operation.scope === ResourcePrimaryScope.APPLICATION) {
      return (
        principal.executionType === ExecutionContext_ExecutionType.APPLICATION_MACHINE &&
        roles.satisfies(principal.roles, operation.roles)
      );
    }
    return false;
  }
  if (!snapshot) return false;
  if (operation.scope === ResourcePrimaryScope.ORGANIZATIONS) {
    for (const role of reachableMemberships(principal, snapshot).values())
      if (roles.satisfies([role], operation.roles)) return true;
    return false;
  }
  return reachesBeyondOrganizations(principal) && roles.satisfies(snapshot.appRoles, operation.roles);
}
