import {
  Actor_ExecutionMode,
  FlowActorSystem_Kind,
  FlowActorSystem_Status,
  FlowActorSystem_Visibility,
  FlowsActors_Agent_Status,
  ResourcePrimaryScope,
  type ActorSystem,
  type FlowsActors_AccessControl,
} from '@wildo/shared-lib';
import { FrameworkError } from '../../errors/index.js';
import type { AuthenticatedPrincipal, RoleHierarchyResolver } from '../../identity/index.js';
import type { DispatchSurface, ExecutionContext, ExecutionContextCreator } from '../../resources/index.js';
import type { AgentsRegistry, ResolvedAgent } from './agents-registry.service.js';
import type { BudgetTenant } from '../budgets/index.js';

/** Where a system is being reached from and for whom. */
export interface SystemAccessRequest {
  systemRef: string;
  principal: AuthenticatedPrincipal;
  /** The organization addressed by the URL (never by the payload). */
  organizationId?: string;
  surface: DispatchSurface;
  requestId: string;
}

/** An admitted use of an actor system: the agent that answers, the caller's context and whose budget pays. */
export interface SystemAdmission {
  system: ActorSystem;
  agent: ResolvedAgent;
  entry: FlowsActors_AccessControl;
  context: ExecutionContext;
  tenant: BudgetTenant;
}

const noSuchSystem = () => new FrameworkError('NOT_FOUND', 'No such assistant.');

/** The budget tenant of a context: the organization, else the user, else the application. */
export function budgetTenantOf(context: Pick<ExecutionContext, 'tenant'>): BudgetTenant {
  const { tenant } = context;
  if (tenant.kind === 'organization') return { kind: 'organization', organizationId: tenant.organizationId };
  if (tenant.kind === 'user') return { kind: 'user', userId: tenant.userId };
  return { kind: 'application' };
}

/**
 * Admission to an actor system, checked at the start of every turn and again before a decided call runs: the
 * system exists, is ACTIVE and reachable from this surface; its agentic actor's agent is ACTIVE; an access entry
 * covers the addressed scope and the caller holds one of its roles (membership is re-read, not trusted from the
 * token). Systems reachable only from the backend are not revealed to network callers.
 */
export class ActorSystemAccess {
  constructor(
    private readonly registry: AgentsRegistry,
    private readonly contexts: ExecutionContextCreator,
    private readonly roles: RoleHierarchyResolver,
  ) {}

  async admit(request: SystemAccessRequest): Promise<SystemAdmission> {
    const system = this.registry.system(request.systemRef);
    if (!system || system.kind !== FlowActorSystem_Kind.ACTOR) throw noSuchSystem();
    if (request.surface === 'rest' && system.visibility !== FlowActorSystem_Visibility.FRONTEND) throw noSuchSystem();
    if (system.status !== FlowActorSystem_Status.ACTIVE) {
      throw new FrameworkError('FORBIDDEN', 'This assistant is switched off.', { reason: 'lifecycle_blocked' });
    }
    const actor = system.actors.find((a) => a.executionMode === Actor_ExecutionMode.AGENTIC && a.agentRef);
    const agent = actor?.agentRef ? this.registry.agent(actor.agentRef) : undefined;
    if (!agent) throw noSuchSystem();
    if (agent.declaration.status !== FlowsActors_Agent_Status.ACTIVE) {
      throw new FrameworkError('FORBIDDEN', 'This assistant’s agent is switched off.', { reason: 'lifecycle_blocked' });
    }
    const entry = this.entryFor(system, request.organizationId);
    const context = await this.contexts.buildContext(
      request.principal,
      { scope: entry.primaryScope },
      request.organizationId ? { organizationId: request.organizationId } : {},
      { surface: request.surface, requestId: request.requestId },
    );
    if (entry.roles && entry.roles.length > 0 && !this.roles.satisfies(context.initiatorRoles, entry.roles)) {
      throw new FrameworkError('FORBIDDEN', 'Your role does not allow using this assistant here.', {
        reason: 'role_refused',
      });
    }
    return { system, agent, entry, context, tenant: budgetTenantOf(context) };
  }

  /** The access entry of the addressed scope: an organization when the URL names one, else the user's or the application's. */
  private entryFor(system: ActorSystem, organizationId: string | undefined): FlowsActors_AccessControl {
    const entries = system.config.accessControl;
    const entry = organizationId
      ? entries.find((e) => e.primaryScope === ResourcePrimaryScope.ORGANIZATIONS)
      : (entries.find((e) => e.primaryScope === ResourcePrimaryScope.USER) ??
        entries.find((e) => e.primaryScope === ResourcePrimaryScope.APPLICATION));
    if (entry) return entry;
    if (organizationId) throw noSuchSystem();
    throw new FrameworkError(
      'BAD_REQUEST',
      'This assistant works within an organization: use /organizations/{organizationId}/flows-actors/systems/{systemRef}/turns.',
    );
  }
}
