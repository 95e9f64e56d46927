import { ExecutionContext_ExecutionType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import {
  checkUserUsable,
  reachableMemberships,
  reachesBeyondOrganizations,
  restrictedToOrganization,
  type AuthenticatedPrincipal,
  type MachinePrincipal,
  type PrincipalDirectory,
  type RoleHierarchyResolver,
  type UserPrincipal,
} from '../identity/index.js';
import type { TenantScope } from '../persistence/index.js';
import type { CompiledOperation } from './compiled-resource.types.js';
import type { DispatchSurface, ExecutionContext } from './execution-context.js';

/** Ids a surface takes from the addressed URL or conversation (never from a payload). */
export interface ContextIds {
  organizationId?: string;
}

/** Call metadata recorded on the context. */
export interface ContextMeta {
  surface: DispatchSurface;
  requestId: string;
}

/** Who calls, with which roles, in which tenant: the part of a context that depends on the principal. */
type ScopedCaller = Pick<ExecutionContext, 'executionType' | 'initiatorIds' | 'tenant'> & { roles: readonly string[] };

const notFound = () => new FrameworkError('NOT_FOUND', 'The record was not found.');

/**
 * Builds the {@link ExecutionContext} of one call from a verified principal and the addressed operation:
 * the tenant, and the principal's roles there. A principal outside the addressed organization gets
 * not-found (the organization's existence is not revealed); so does a person whose token is restricted to
 * another organization, and such a token is refused application- and user-scoped operations. An unreadable
 * directory fails closed.
 */
@injectable()
export class ExecutionContextCreator {
  constructor(
    @inject(SAAS_SERVICE_TYPES.PrincipalDirectory) private readonly directory: PrincipalDirectory,
    @inject(SAAS_SERVICE_TYPES.RoleHierarchyResolver) private readonly roles: RoleHierarchyResolver,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** Builds the context of one call (REST, MCP, A2A, a function tool's caller) through the dispatcher. */
  async buildContext(
    principal: AuthenticatedPrincipal,
    operation: Pick<CompiledOperation, 'scope'>,
    contextIds: ContextIds,
    meta: ContextMeta,
  ): Promise<ExecutionContext> {
    // Every call builds one: the context is assembled in place (no intermediate objects), on the hot path.
    const scoped =
      principal.kind === 'user'
        ? await this.forUser(principal, operation.scope, contextIds)
        : this.forMachine(principal, operation.scope, contextIds);
    return {
      executionType: scoped.executionType,
      initiatorIds: scoped.initiatorIds,
      initiatorRoles: this.roles.expand(scoped.roles),
      tenant: scoped.tenant,
      surface: meta.surface,
      requestId: meta.requestId,
      callTimestamp: this.clock.now().toISOString(),
      principal,
    };
  }

  private async forUser(principal: UserPrincipal, scope: ResourcePrimaryScope, ids: ContextIds): Promise<ScopedCaller> {
    // Re-checked here, not only at authentication: a conversation may outlive a role change.
    const usable = checkUserUsable(this.directory, principal);
    const snapshot = usable instanceof Promise ? await usable : usable;
    const userId = principal.userId;
    if (scope === ResourcePrimaryScope.ORGANIZATIONS) {
      const organizationId = ids.organizationId;
      // A token restricted to one organization reaches no other: those answer not-found like any non-membership.
      const role = organizationId ? reachableMemberships(principal, snapshot).get(organizationId) : undefined;
      if (!organizationId || !role) throw notFound();
      return {
        executionType: ExecutionContext_ExecutionType.USER,
        initiatorIds: { userId, organizationId },
        roles: [role],
        tenant: { kind: 'organization', organizationId },
      };
    }
    if (!reachesBeyondOrganizations(principal)) throw restrictedToOrganization();
    const tenant: TenantScope =
      scope === ResourcePrimaryScope.USER ? { kind: 'user', userId } : { kind: 'application' };
    return {
      executionType: ExecutionContext_ExecutionType.USER,
      initiatorIds: { userId },
      roles: snapshot.appRoles,
      tenant,
    };
  }

  private forMachine(principal: MachinePrincipal, scope: ResourcePrimaryScope, ids: ContextIds): ScopedCaller {
    const base = { executionType: principal.executionType, roles: principal.roles };
    if (scope === ResourcePrimaryScope.ORGANIZATIONS) {
      // An organization machine reaches its own organization only; the other's records are simply not found.
      if (!principal.organizationId || ids.organizationId !== principal.organizationId) throw notFound();
      const tenant: TenantScope = { kind: 'organization', organizationId: principal.organizationId };
      return {
        ...base,
        initiatorIds: { clientId: principal.clientId, organizationId: principal.organizationId },
        tenant,
      };
    }
    if (
      scope === ResourcePrimaryScope.USER ||
      principal.executionType !== ExecutionContext_ExecutionType.APPLICATION_MACHINE
    ) {
      throw new FrameworkError('FORBIDDEN', 'This credential cannot call this operation.', {
        reason: 'principal_not_allowed',
      });
    }
    const tenant: TenantScope = { kind: 'application' };
    return { ...base, initiatorIds: { clientId: principal.clientId }, tenant };
  }
}
