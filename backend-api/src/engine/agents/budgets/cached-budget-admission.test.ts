import { describe, expect, it } from 'vitest';
import { A2ATokenBudgetDenialReason } from '@wildo/shared-lib';
import { ManualClock } from '../../../testing/manual-clock.js';
import { CachedBudgetAdmission } from './cached-budget-admission.js';
import type { BudgetTenant, TokenBudgetDecision, TokenBudgetService } from './token-budget.types.js';

/** A store with one allowance and a read counter. */
class CountingStore implements TokenBudgetService {
  reads = 0;
  consumed = 0;
  failing = false;
  constructor(private readonly allowance: number) {}
  async checkAdmission(): Promise<TokenBudgetDecision> {
    this.reads += 1;
    if (this.failing) throw new Error('store down');
    if (this.consumed >= this.allowance) {
      return {
        kind: 'over_budget',
        reason: A2ATokenBudgetDenialReason.ALLOWANCE_EXHAUSTED,
        allowanceTokens: this.allowance,
        consumedTokens: this.consumed,
        source: 'plan',
        resetsAt: '2026-05-01T00:00:00.000Z',
      };
    }
    return { kind: 'ok', allowanceTokens: this.allowance, consumedTokens: this.consumed, source: 'plan' };
  }
  async recordConsumption(_tenant: BudgetTenant, tokens: number): Promise<void> {
    this.consumed += tokens;
  }
}

const tenant: BudgetTenant = { kind: 'organization', organizationId: 'org-1' };
const clockAt = (iso: string) => new ManualClock(new Date(iso));

describe('CachedBudgetAdmission', () => {
  it('reuses an admitting decision within its time to live, and reads the store again after it', async () => {
    const store = new CountingStore(1_000);
    const clock = clockAt('2026-04-10T10:00:00Z');
    const cached = new CachedBudgetAdmission(store, clock, 1_000);
    await cached.checkAdmission(tenant);
    await cached.checkAdmission(tenant);
    expect(store.reads).toBe(1);
    clock.set('2026-04-10T10:00:01.001Z');
    await cached.checkAdmission(tenant);
    expect(store.reads).toBe(2);
  });

  it('keeps the reused decision current with recorded consumption and asks the store once the allowance is reached', async () => {
    const store = new CountingStore(1_000);
    const cached = new CachedBudgetAdmission(store, clockAt('2026-04-10T10:00:00Z'));
    expect(await cached.checkAdmission(tenant)).toMatchObject({ kind: 'ok', consumedTokens: 0 });
    await cached.recordConsumption(tenant, 600);
    expect(await cached.checkAdmission(tenant)).toMatchObject({ kind: 'ok', consumedTokens: 600 });
    expect(store.reads).toBe(1);
    await cached.recordConsumption(tenant, 500);
    expect(await cached.checkAdmission(tenant)).toMatchObject({ kind: 'over_budget', consumedTokens: 1_100 });
    expect(store.reads).toBe(2);
  });

  it('never caches a refusal, and reads the store again in a new UTC month', async () => {
    const store = new CountingStore(0);
    const clock = clockAt('2026-04-30T23:59:59Z');
    const cached = new CachedBudgetAdmission(store, clock);
    expect((await cached.checkAdmission(tenant)).kind).toBe('over_budget');
    expect((await cached.checkAdmission(tenant)).kind).toBe('over_budget');
    expect(store.reads).toBe(2);

    const open = new CountingStore(10);
    const monthly = new CachedBudgetAdmission(open, clock);
    await monthly.checkAdmission(tenant);
    clock.set('2026-05-01T00:00:00Z');
    await monthly.checkAdmission(tenant);
    expect(open.reads).toBe(2);
  });

  it('fails closed once the reused decision has expired and the store cannot be read', async () => {
    const store = new CountingStore(1_000);
    const clock = clockAt('2026-04-10T10:00:00Z');
    const cached = new CachedBudgetAdmission(store, clock, 1_000);
    await cached.checkAdmission(tenant);
    store.failing = true;
    clock.set('2026-04-10T10:00:02Z');
    await expect(cached.checkAdmission(tenant)).rejects.toThrow('store down');
  });
});
