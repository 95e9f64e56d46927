import { ExecutionContext_ExecutionType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import type { Clock } from '../container/clock.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import { FrameworkError } from '../errors/index.js';
import { assertUserUsable, readUserSnapshot } from '../identity/authenticator.service.js';
import { reachableMemberships, reachesBeyondOrganizations, restrictedToOrganization } from '../identity/organization-restriction.js';
import type { PrincipalDirectory } from '../identity/principal-directory.js';
import type { AuthenticatedPrincipal, MachinePrincipal, UserPrincipal } from '../identity/principal.types.js';
import type { TenantScope } from '../persistence/resource-store.js';
import type { CompiledOperation } from './compiled-resource.types.js';
import type { DispatchSurface, ExecutionContext } from './execution-context.js';
import type { RoleHierarchyResolver } from './role-hierarchy.service.js';

/** Ids a surface takes from the addressed URL or conversation (never from a payload). */
export interface ContextIds {
  organizationId?: string;
}

/** Call metadata recorded on the context. */
export interface ContextMeta {
  surface: DispatchSurface;
  requestId: string;
}

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

  /** Builds the context for a call through a network surface. */
  async buildContext(
    principal: AuthenticatedPrincipal,
    operation: Pick<CompiledOperation, 'scope'>,
    contextIds: ContextIds,
    meta: ContextMeta,
  ): Promise<ExecutionContext> {
    const resolved =
      principal.kind === 'user'
        ? await this.forUser(principal, operation.scope, contextIds)
        : this.forMachine(principal, operation.scope, contextIds);
    return {
      ...resolved,
      initiatorRoles: this.roles.expand(resolved.roles),
      surface: meta.surface,
      requestId: meta.requestId,
      callTimestamp: this.clock.now().toISOString(),
      principal,
    };
  }

  /** Builds the context for a function tool or socket call, from the conversation's verified authentication. */
  buildContextFromSocketAuth(
    auth: AuthenticatedPrincipal,
    operation: Pick<CompiledOperation, 'scope'>,
    contextIds: ContextIds,
    requestId = `tool-${this.clock.now().getTime()}`,
  ): Promise<ExecutionContext> {
    return this.buildContext(auth, operation, contextIds, { surface: 'tool', requestId });
  }

  private async forUser(principal: UserPrincipal, scope: ResourcePrimaryScope, ids: ContextIds) {
    // Re-checked here, not only at authentication: a conversation may outlive a role change.
    const snapshot = assertUserUsable(await readUserSnapshot(this.directory, principal.userId), principal);
    const base = { executionType: ExecutionContext_ExecutionType.USER, initiatorIds: { userId: principal.userId } };
    if (scope === ResourcePrimaryScope.ORGANIZATIONS) {
      const organizationId = ids.organizationId;
      // A token restricted to one organization reaches no other: those answer not-found like any non-membership.
      const role = organizationId ? reachableMemberships(principal, snapshot).get(organizationId) : undefined;
      if (!organizationId || !role) throw notFound();
      const tenant: TenantScope = { kind: 'organization', organizationId };
      return { ...base, initiatorIds: { ...base.initiatorIds, organizationId }, roles: [role], tenant };
    }
    if (!reachesBeyondOrganizations(principal)) throw restrictedToOrganization();
    const tenant: TenantScope = scope === ResourcePrimaryScope.USER ? { kind: 'user', userId: principal.userId } : { kind: 'application' };
    return { ...base, roles: snapshot.appRoles, tenant };
  }

  private forMachine(principal: MachinePrincipal, scope: ResourcePrimaryScope, ids: ContextIds) {
    const base = { executionType: principal.executionType, roles: principal.roles };
    if (scope === ResourcePrimaryScope.ORGANIZATIONS) {
      // An organization machine reaches its own organization only; the other's records are simply not found.
      if (!principal.organizationId || ids.organizationId !== principal.organizationId) throw notFound();
      const tenant: TenantScope = { kind: 'organization', organizationId: principal.organizationId };
      return { ...base, initiatorIds: { clientId: principal.clientId, organizationId: principal.organizationId }, tenant };
    }
    if (scope === ResourcePrimaryScope.USER || principal.executionType !== ExecutionContext_ExecutionType.APPLICATION_MACHINE) {
      throw new FrameworkError('FORBIDDEN', 'This credential cannot call this operation.', { reason: 'principal_not_allowed' });
    }
    const tenant: TenantScope = { kind: 'application' };
    return { ...base, initiatorIds: { clientId: principal.clientId }, tenant };
  }
}
