import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import { FrameworkError } from '../errors/index.js';
import type { CompiledOperation } from './compiled-resource.types.js';
import type { ExecutionContext } from './execution-context.js';
import type { RateLimitService } from './rate-limit.service.js';
import type { RoleHierarchyResolver } from './role-hierarchy.service.js';

/**
 * Admission of one call to one operation: lifecycle, roles, the operation's rate policy. Every surface (function
 * tools included, through their caller) runs it through the dispatcher.
 */
@injectable()
export class OperationAdmission {
  constructor(
    @inject(SAAS_SERVICE_TYPES.RoleHierarchyResolver) private readonly roles: RoleHierarchyResolver,
    @inject(SAAS_SERVICE_TYPES.RateLimitService) private readonly rateLimits: RateLimitService,
  ) {}

  /** Refuses retired and unimplemented operations before anything else is looked at. */
  checkLifecycle(operation: CompiledOperation): void {
    if (operation.lifecycle === 'retired') {
      throw new FrameworkError('OPERATION_RETIRED', 'This operation has been retired.', { reason: 'lifecycle_blocked' });
    }
    if (operation.unimplemented) throw new FrameworkError('NOT_IMPLEMENTED', 'This operation is not implemented.');
  }

  /** Refuses a caller whose roles in the addressed scope do not include one the operation admits. */
  authorize(operation: CompiledOperation, context: ExecutionContext): void {
    if (!this.roles.satisfies(context.initiatorRoles, operation.roles)) {
      throw new FrameworkError('FORBIDDEN', 'You are not allowed to perform this operation.', { reason: 'role_refused' });
    }
  }

  /** Lifecycle, roles and rate policy, in that order. */
  async admit(operation: CompiledOperation, context: ExecutionContext): Promise<void> {
    this.checkLifecycle(operation);
    this.authorize(operation, context);
    await this.rateLimits.chargeOperation(operation, context);
  }
}
