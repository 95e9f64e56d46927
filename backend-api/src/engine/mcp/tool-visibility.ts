import { ExecutionContext_ExecutionType, ResourcePrimaryScope } from '@wildo/shared-lib';
import type { AuthenticatedPrincipal, UserSnapshot } from '../identity/principal.types.js';
import type { RoleHierarchyResolver } from '../resources/role-hierarchy.service.js';
import type { McpToolEntry } from './tool-catalogue.service.js';

/**
 * Whether a caller could use a tool somewhere: a person through any of their organizations (or their
 * application roles), a machine within its own scope. The catalogue lists these; calling still authorizes.
 */
export function isToolVisible(entry: McpToolEntry, principal: AuthenticatedPrincipal, snapshot: UserSnapshot | null, roles: RoleHierarchyResolver): boolean {
  const operation = entry.resource?.operation;
  if (!operation) return true;
  if (principal.kind === 'machine') {
    if (operation.scope === ResourcePrimaryScope.ORGANIZATIONS) return principal.organizationId !== undefined && roles.satisfies(principal.roles, operation.roles);
    if (operation.scope === ResourcePrimaryScope.APPLICATION) {
      return principal.executionType === ExecutionContext_ExecutionType.APPLICATION_MACHINE && roles.satisfies(principal.roles, operation.roles);
    }
    return false;
  }
  if (!snapshot) return false;
  if (operation.scope === ResourcePrimaryScope.ORGANIZATIONS) {
    for (const role of snapshot.memberships.values()) if (roles.satisfies([role], operation.roles)) return true;
    return false;
  }
  return roles.satisfies(snapshot.appRoles, operation.roles);
}
