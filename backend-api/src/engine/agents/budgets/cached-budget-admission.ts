import type { Clock } from '../../container/index.js';
import { utcMonthOf } from './budget-period.js';
import type { BudgetTenant, TokenBudgetDecision, TokenBudgetService } from './token-budget.types.js';

/** How long an admitting decision is reused before the store is read again (default). */
export const BUDGET_ADMISSION_CACHE_MS = 1_000;

interface Entry {
  decision: Extract<TokenBudgetDecision, { kind: 'ok' }>;
  period: string;
  until: number;
}

const keyOf = (tenant: BudgetTenant) =>
  tenant.kind === 'organization' ? `o:${tenant.organizationId}` : tenant.kind === 'user' ? `u:${tenant.userId}` : 'a';

/**
 * Budget admission for the hot path of turns: an admitting decision is reused for a short time and kept current
 * with the consumption this process records, so a turn does not pay a store round trip it would almost always
 * pass. Refusals always come from the store (a tenant whose local count reaches the allowance is read again);
 * another replica's consumption is seen within `ttlMs`; a store that stays unreadable longer refuses (fail closed).
 */
export class CachedBudgetAdmission implements TokenBudgetService {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: TokenBudgetService,
    private readonly clock: Clock,
    private readonly ttlMs: number = BUDGET_ADMISSION_CACHE_MS,
  ) {}

  async checkAdmission(tenant: BudgetTenant): Promise<TokenBudgetDecision> {
    const key = keyOf(tenant);
    const now = this.clock.now();
    const period = utcMonthOf(now).period;
    const entry = this.entries.get(key);
    if (entry && entry.period === period && entry.until > now.getTime()) {
      const { allowanceTokens, consumedTokens } = entry.decision;
      if (allowanceTokens === null || consumedTokens < allowanceTokens) return { ...entry.decision };
    }
    const decision = await this.store.checkAdmission(tenant);
    if (decision.kind === 'ok' && this.ttlMs > 0)
      this.entries.set(key, { decision: { ...decision }, period, until: now.getTime() + this.ttlMs });
    else this.entries.delete(key);
    return decision;
  }

  async recordConsumption(tenant: BudgetTenant, tokens: number, at?: Date): Promise<void> {
    await this.store.recordConsumption(tenant, tokens, at);
    const entry = this.entries.get(keyOf(tenant));
    if (entry && entry.period === utcMonthOf(at ?? this.clock.now()).period) entry.decision.consumedTokens += tokens;
  }

  /** Forgets every reused decision (after plans, overrides or profiles change in this process). */
  clear(): void {
    this.entries.clear();
  }
}
