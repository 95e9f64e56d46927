import type { A2ATokenBudgetDenialReason } from '@wildo/shared-lib';

/** Whose allowance a turn is charged to. The application scope is the one tenant of application-owned work. */
export type BudgetTenant =
  | { kind: 'organization'; organizationId: string }
  | { kind: 'user'; userId: string }
  | { kind: 'application' };

/** The kinds of {@link BudgetTenant}; feature profiles are set per kind. */
export type BudgetTenantKind = BudgetTenant['kind'];

/**
 * Where a tenant's allowance came from, in resolution order: an unexpired manual override, the `SET` grants
 * of its active plans (the largest wins), the feature profile of its tenant kind, else no limit.
 */
export type TokenAllowanceSource = 'override' | 'plan' | 'profile' | 'none';

/** The admission decision before a turn (a comparison, not a precharge: running turns may finish over it). */
export type TokenBudgetDecision =
  | { kind: 'ok'; allowanceTokens: number | null; consumedTokens: number; source: TokenAllowanceSource }
  | {
      kind: 'over_budget';
      reason: A2ATokenBudgetDenialReason;
      allowanceTokens: number;
      consumedTokens: number;
      source: Exclude<TokenAllowanceSource, 'none'>;
      /** When the next UTC calendar month starts (ISO 8601): consumption starts again from 0 then. */
      resetsAt: string;
    };

/** Resolves a tenant's monthly token allowance and records what its turns consumed (per UTC calendar month). */
export interface TokenBudgetService {
  /**
   * Admits a turn while consumed < allowance; `allowanceTokens: null` = no limit applies. Fails closed: when the
   * budget store cannot be read it throws `FrameworkError('SERVICE_UNAVAILABLE')` instead of admitting.
   */
  checkAdmission(tenant: BudgetTenant): Promise<TokenBudgetDecision>;
  /**
   * Adds consumption after a model call (to the UTC month of `at`, default now). Atomic: concurrent calls are
   * never lost. Throws `SERVICE_UNAVAILABLE` when the store cannot be written; callers log it (the call is done).
   */
  recordConsumption(tenant: BudgetTenant, tokens: number, at?: Date): Promise<void>;
}

/** A tenant's effective allowance of a feature and where it came from. */
export interface EffectiveFeatureLimit {
  featureId: string;
  /** `null`: no limit applies. */
  value: number | null;
  source: TokenAllowanceSource;
  /** The plans that granted it (`source: 'plan'`): every active plan with a `SET` grant, largest first. */
  grantingProductRefs: string[];
  /** The override's expiry (`source: 'override'`), if it has one. */
  overrideExpiresAt?: string;
}

/** What a tenant has used of its allowance this month (for admin views and verification). */
export interface TokenBudgetStatus {
  tenant: BudgetTenant;
  limit: EffectiveFeatureLimit;
  consumedTokens: number;
  /** The UTC calendar month, `YYYY-MM`. */
  period: string;
  /** When the next month starts (ISO 8601). */
  resetsAt: string;
}

/** A manual override of one feature for one tenant. */
export interface FeatureOverrideInput {
  value: number;
  /** After this instant the override no longer applies (it is not deleted). */
  expiresAt?: Date;
  /** Why it was granted (audit); never shown to the tenant. */
  note?: string;
}

/** What a tenant consumed on one UTC day. */
export interface DailyConsumption {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  consumedTokens: number;
}

/** A plan of the product catalogue as administration views list it. */
export interface CataloguePlan {
  ref: string;
  displayName: string;
  scope: string;
  /** The features the plan grants a limit of (sorted). */
  featureIds: string[];
}

/**
 * Administration of budgets: plan assignments, overrides and profiles (the REST resources of
 * `token-budget.resources.ts` call these through the dispatch path).
 */
export interface TokenBudgetAdministration {
  /** Activates a catalogue plan for a tenant (idempotent). Refuses unknown plans, a plan of another scope, and the application scope. */
  assignPlan(tenant: BudgetTenant, productRef: string): Promise<void>;
  /** Deactivates a plan; false when it was not active. */
  removePlan(tenant: BudgetTenant, productRef: string): Promise<boolean>;
  /** The tenant's active plan refs, sorted. */
  listPlans(tenant: BudgetTenant): Promise<string[]>;
  /** Sets (replaces) a tenant's override of a feature. */
  setOverride(tenant: BudgetTenant, featureId: string, override: FeatureOverrideInput): Promise<void>;
  /** Removes it; false when there was none. */
  clearOverride(tenant: BudgetTenant, featureId: string): Promise<boolean>;
  /** Sets the profile value of a feature for every tenant of a kind (the application scope's allowance lives here). */
  setProfile(kind: BudgetTenantKind, featureId: string, value: number): Promise<void>;
  /** Removes it; false when there was none. */
  clearProfile(kind: BudgetTenantKind, featureId: string): Promise<boolean>;
  /** The tenant's effective limit of a feature (default: the A2A token budget). */
  resolveLimit(tenant: BudgetTenant, featureId?: string): Promise<EffectiveFeatureLimit>;
  /** Allowance, consumption and period of the month containing `at` (default now). */
  status(tenant: BudgetTenant, at?: Date): Promise<TokenBudgetStatus>;
  /** Consumption per UTC day of the month containing `at` (default now); days without use are left out. */
  dailyConsumption(tenant: BudgetTenant, at?: Date): Promise<DailyConsumption[]>;
  /** The plans of the product catalogue. */
  catalogue(): CataloguePlan[];
}
