import { SAAS_SERVICE_TYPES } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { ErrorBuilder, ExecutionContext, RecordGuard } from '../resources/index.js';
import type { RoleHierarchyResolver } from '../identity/index.js';

/**
 * Refuses a credential (API key, OAuth client) holding or asking for a role the caller does not hold, directly
 * or through the hierarchy: nobody mints or manages authority above their own.
 */
export function assertRequestedRolesWithinCallerCeiling(
  executionContext: ExecutionContext,
  roles: readonly string[] | undefined,
  errorBuilder: ErrorBuilder,
  roleHierarchyResolver: RoleHierarchyResolver,
): void {
  for (const role of roles ?? []) {
    if (!roleHierarchyResolver.isWithin(role, executionContext.initiatorRoles)) {
      throw errorBuilder.forbidden('A credential cannot hold a role above your own.', 'role_refused');
    }
  }
}

/** The roles a call asks for (CREATE, UPDATE), as validated by its contract. */
function requestedRoles(input: unknown): readonly string[] | undefined {
  return input !== null && typeof input === 'object' && 'roles' in input
    ? (input.roles as readonly string[])
    : undefined;
}

/**
 * The guard of every credential resource (API keys, OAuth clients), run by the service pipeline for every
 * operation but reads: the addressed credential's current roles and any requested roles must lie within the
 * caller's, through the hierarchy. Nobody mints, re-mints (rotate, regenerate), changes or deletes a credential
 * above their own authority. `preconditions` then check the operation's own rules (cutoff, record state), still
 * before any side effect and before a step-up proof is consumed.
 */
export function credentialGuard(preconditions?: RecordGuard): RecordGuard {
  return async (args) => {
    const resolver = args.utils.resolve<RoleHierarchyResolver>(SAAS_SERVICE_TYPES.RoleHierarchyResolver);
    const current = args.record?.roles as readonly string[] | undefined;
    for (const roles of [current, requestedRoles(args.input)])
      assertRequestedRolesWithinCallerCeiling(args.executionContext, roles, args.utils.errorBuilder, resolver);
    await preconditions?.(args);
  };
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
