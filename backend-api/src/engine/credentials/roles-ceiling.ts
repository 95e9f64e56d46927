import { FrameworkError } from '../errors/index.js';
import type { ErrorBuilder } from '../resources/custom-service.js';
import type { ExecutionContext } from '../resources/execution-context.js';
import type { RoleHierarchyResolver } from '../resources/role-hierarchy.service.js';

/**
 * Refuses a credential (API key, OAuth client) asking for a role the caller does not hold, directly or
 * through the hierarchy: nobody mints authority above their own.
 */
export function assertRequestedRolesWithinCallerCeiling(
  executionContext: ExecutionContext,
  roles: readonly string[] | undefined,
  errorBuilder: ErrorBuilder,
  roleHierarchyResolver: RoleHierarchyResolver,
): void {
  for (const role of roles ?? []) {
    if (!roleHierarchyResolver.isWithin(role, executionContext.initiatorRoles)) {
      throw errorBuilder.forbidden('A credential cannot receive a role above your own.', 'role_refused');
    }
  }
}

/** Refuses a cutoff in the past or too far ahead; returns the cutoff (now when omitted). */
export function cutoffOf(requested: string | undefined, now: Date, maxDays = 90): string {
  if (requested === undefined) return now.toISOString();
  const at = new Date(requested).getTime();
  // A small tolerance for clock skew between the caller and the server.
  if (at < now.getTime() - 60_000 || at > now.getTime() + maxDays * 86_400_000) {
    throw new FrameworkError('VALIDATION_FAILED', 'The cutoff must be between now and 90 days ahead.', {
      reason: 'input_invalid',
      problems: [{ path: 'oldKeyInvalidationDate', expected: `an instant between now and ${maxDays} days ahead` }],
    });
  }
  return new Date(at).toISOString();
}
