import { describe, expect, it } from 'vitest';
import { A2A_TOKEN_BUDGET_FEATURE_ID, LimitGrantMode, ProductCatalogSchema } from './products.schema.js';

const team = {
  ref: 'team',
  displayName: 'Team',
  scope: 'organization',
  grantedLimits: { [A2A_TOKEN_BUDGET_FEATURE_ID]: { value: 100_000, mode: LimitGrantMode.SET } },
};

describe('products', () => {
  it('accepts a plan granting the A2A token budget with LimitGrantMode.SET', () => {
    expect(ProductCatalogSchema.parse([team])[0]?.grantedLimits[A2A_TOKEN_BUDGET_FEATURE_ID]).toEqual({
      value: 100_000,
      mode: 'SET',
    });
  });

  it('refuses two products with the same ref, at the second one', () => {
    const result = ProductCatalogSchema.safeParse([team, { ...team, displayName: 'Team 2' }]);
    expect(result.success ? [] : result.error.issues.map((i) => i.path)).toEqual([[1, 'ref']]);
  });

  it('refuses a grant mode other than SET', () => {
    expect(ProductCatalogSchema.safeParse([{ ...team, grantedLimits: { x: { value: 1, mode: 'ADD' } } }]).success).toBe(
      false,
    );
  });

  it('refuses a scope other than organization or user', () => {
    expect(ProductCatalogSchema.safeParse([{ ...team, scope: 'application' }]).success).toBe(false);
  });
});
