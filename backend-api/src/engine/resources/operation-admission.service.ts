import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { CompiledOperation } from './compiled-resource.types.js';
import type { ExecutionContext } from './execution-context.js';
import type { RoleHierarchyResolver } from '../identity/index.js';

/** Refuses retired and unimplemented operations before anything else is looked at. */
export function checkLifecycle(operation: Pick<CompiledOperation, 'lifecycle' | 'unimplemented'>): void {
  if (operation.lifecycle === 'retired') {
    throw new FrameworkError('OPERATION_RETIRED', 'This operation has been retired.', { reason: 'lifecycle_blocked' });
  }
  if (operation.unimplemented) throw new FrameworkError('NOT_IMPLEMENTED', 'This operation is not implemented.');
}

/**
 * Whether an owner-only variant confines this caller to the records they created (no exempt role held):
 * the service pipeline then matches only those, and pages say so.
 */
export function confinedToOwnRecords(
  roles: Pick<RoleHierarchyResolver, 'satisfies'>,
  operation: Pick<CompiledOperation, 'ownerOnly'>,
  context: Pick<ExecutionContext, 'initiatorRoles'>,
): boolean {
  return operation.ownerOnly !== undefined && !roles.satisfies(context.initiatorRoles, operation.ownerOnly.exemptRoles);
}

/**
 * The admission rules of one call to one operation: lifecycle and roles. The dispatcher runs them as its
 * `lifecycle` and `authorize` steps (see `dispatch-steps.ts`), for every surface, function tools included.
 */
@injectable()
export class OperationAdmission {
  constructor(@inject(SAAS_SERVICE_TYPES.RoleHierarchyResolver) private readonly roles: RoleHierarchyResolver) {}

  /** Refuses retired and unimplemented operations before anything else is looked at. */
  checkLifecycle(operation: CompiledOperation): void {
    checkLifecycle(operation);
  }

  /** Refuses a caller whose roles in the addressed scope do not include one the operation admits. */
  authorize(operation: CompiledOperation, context: ExecutionContext): void {
    if (!this.roles.satisfies(context.initiatorRoles, operation.roles)) {
      throw new FrameworkError('FORBIDDEN', 'You are not allowed to perform this operation.', {
        reason: 'role_refused',
      });
    }
  }
}
