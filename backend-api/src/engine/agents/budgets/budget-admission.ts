import { FrameworkError } from '../../errors/index.js';
import type { BudgetTenant, TokenBudgetService } from './token-budget.types.js';

/**
 * Admits a turn while the tenant's consumption this UTC month is below its allowance; otherwise refuses with
 * RATE_LIMITED, reason `budget_exhausted`, and `Retry-After` until the next month starts. Running turns are not
 * interrupted: only new turns (and resumed ones) are checked.
 */
export async function admitBudget(
  budgets: TokenBudgetService,
  tenant: BudgetTenant,
  now: Date = new Date(),
): Promise<void> {
  const decision = await budgets.checkAdmission(tenant);
  if (decision.kind === 'ok') return;
  const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(decision.resetsAt) - now.getTime()) / 1000));
  throw new FrameworkError(
    'RATE_LIMITED',
    `The monthly AI token allowance is used up (${decision.consumedTokens} of ${decision.allowanceTokens} tokens); it renews at ${decision.resetsAt}.`,
    {
      reason: 'budget_exhausted',
      retryAfterSeconds,
      details: {
        allowanceTokens: decision.allowanceTokens,
        consumedTokens: decision.consumedTokens,
        resetsAt: decision.resetsAt,
        source: decision.source,
      },
    },
  );
}
