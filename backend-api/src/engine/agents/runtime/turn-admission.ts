import { FrameworkError } from '../../errors/index.js';
import type { Clock } from '../../container/index.js';
import type { AuthenticatedPrincipal } from '../../identity/index.js';
import type { DispatchSurface } from '../../resources/index.js';
import { admitBudget, type TokenBudgetService } from '../budgets/index.js';
import { toAgentCallError } from './provider-failure.js';
import type { LLMProviderAdapter } from '../providers/index.js';
import type { ActorSystemAccess, SystemAdmission } from '../systems/index.js';

/** Who asks to run a turn of which system, where. */
export interface TurnAdmissionRequest {
  systemRef: string;
  principal: AuthenticatedPrincipal;
  organizationId?: string;
  surface: DispatchSurface;
  requestId: string;
  /** The agent a continued conversation was held with: another one is a conflict. */
  expectedAgentRef?: string;
}

/** What admission needs. */
export interface TurnAdmissionDeps {
  access: Pick<ActorSystemAccess, 'admit'>;
  providers: { get(ref: string): LLMProviderAdapter };
  budgets: TokenBudgetService;
  clock: Clock;
}

/**
 * Admission of a turn, before any stream, claim or decision: the caller to the system (roles, tenant), the agent
 * it was held with, a provider this server can call, and a token budget.
 */
export class TurnAdmission {
  constructor(private readonly deps: TurnAdmissionDeps) {}

  /** Admits the turn or refuses with the first rule that fails. */
  async admit(request: TurnAdmissionRequest): Promise<SystemAdmission> {
    const admission = await this.deps.access.admit({
      systemRef: request.systemRef,
      principal: request.principal,
      ...(request.organizationId ? { organizationId: request.organizationId } : {}),
      surface: request.surface,
      requestId: request.requestId,
    });
    if (request.expectedAgentRef !== undefined && admission.agent.declaration.ref !== request.expectedAgentRef) {
      throw new FrameworkError('CONFLICT', 'This assistant has changed since the action was proposed; ask again.');
    }
    this.requireProvider(admission);
    await admitBudget(this.deps.budgets, admission.tenant, this.deps.clock.now());
    return admission;
  }

  /** Refuses (503) when the agent's provider cannot be called on this server, e.g. without its credential. */
  private requireProvider(admission: SystemAdmission): void {
    try {
      this.deps.providers.get(admission.agent.providerRef);
    } catch (error) {
      throw toAgentCallError(error);
    }
  }
}
