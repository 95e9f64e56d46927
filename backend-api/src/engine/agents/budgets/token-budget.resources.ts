import {
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  defineResource,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { z } from 'zod';

const API_CALL = ResourceOperationVariantType.API_CALL;
const organizationId = z.string().min(1).max(64);
const productRef = z.string().min(1).max(100);
const timestamp = z.iso.datetime({ offset: true });
/** A feature id as the product catalogue writes it (the override routes accept the catalogue's features only). */
const featureId = z
  .string()
  .regex(/^[a-z][a-z0-9._-]{0,126}$/)
  .optional();

/** Custom operations of {@link tokenBudgetsAdminResource}. */
export enum TokenBudgets_Operations {
  ORGANIZATIONS = 'organizations',
  TENANT = 'tenant',
  ASSIGN_PLAN = 'assign-plan',
  REMOVE_PLAN = 'remove-plan',
  SET_OVERRIDE = 'set-override',
  CLEAR_OVERRIDE = 'clear-override',
}

/** Custom operation of {@link tokenUsageResource}. */
export enum TokenUsage_Operations {
  CURRENT = 'current',
}

/** The effective monthly allowance and where it came from (`null` value: no limit). */
export const TokenAllowanceSchema = z.object({
  value: z.number().int().nullable(),
  source: z.enum(['override', 'plan', 'profile', 'none']),
  grantingProductRefs: z.array(z.string()),
  overrideExpiresAt: z.string().optional(),
});

/** One UTC day's consumption. */
export const DailyConsumptionSchema = z.object({ day: z.string(), consumedTokens: z.number().int() });

/** A tenant's consumption this UTC month against its allowance, with the days that had use. */
export const TokenUsageSchema = z.object({
  allowance: TokenAllowanceSchema,
  consumedTokens: z.number().int(),
  /** `YYYY-MM` (UTC). */
  period: z.string(),
  resetsAt: z.string(),
  daily: z.array(DailyConsumptionSchema),
});

/** The effective limit of one budgeted feature. */
export const FeatureLimitSchema = TokenAllowanceSchema.extend({ featureId: z.string() });

/** An organization's budget as application admins administer it. */
export const TenantBudgetSchema = TokenUsageSchema.extend({
  organizationId: z.string(),
  /** Its name, for the page's heading. */
  organizationName: z.string(),
  plans: z.array(z.string()),
  /**
   * Every budgeted feature (the token budget and each feature an organization plan grants), with the tenant's
   * effective limit and where it came from; `allowance` above is the token budget's.
   */
  features: z.array(FeatureLimitSchema),
  /** The catalogue's organization plans, to choose from. */
  availablePlans: z.array(z.object({ ref: z.string(), displayName: z.string() })),
});

/** The organizations to choose from, by name. */
export const OrganizationChoicesSchema = z.object({
  organizations: z.array(z.object({ _id: z.string(), name: z.string() })),
  /** True when more organizations match than were listed (narrow with `nameContains`). */
  truncated: z.boolean(),
});

const tenantRequest = z.object({ organizationId });
const clearOverrideRequest = z.object({ organizationId, featureId });
const planRequest = z.object({ organizationId, productRef });
const overrideRequest = z.object({
  organizationId,
  featureId,
  value: z.number().int().min(0).max(1_000_000_000_000),
  expiresAt: timestamp.optional(),
  note: z.string().max(500).optional(),
});

/** Records nobody stores: both resources below serve custom operations only. */
const NoRecordSchema = z.object({ label: z.string().max(1).optional() });

const admin = { variantType: API_CALL, isDefault: true, roles: [CORE_APP_ROLES.APP_ADMIN] };

/**
 * Plans and per-tenant overrides of every budgeted feature (the A2A token budget when `featureId` is left out),
 * for application admins, at `POST /api/v1/token-budgets/<operation>`: list the organizations to choose from,
 * read a tenant's budget, assign or remove a catalogue plan, set or clear a manual override. Each change answers
 * the tenant's budget after it.
 */
export const tokenBudgetsAdminResource = defineResource({
  type: 'token-budgets',
  displayName: 'Token budgets',
  primaryScope: ResourcePrimaryScope.APPLICATION,
  schema: NoRecordSchema,
  customOperations: {
    [TokenBudgets_Operations.ORGANIZATIONS]: {
      target: 'collection',
      requestSchema: z.object({ nameContains: z.string().max(100).optional() }),
      responseSchema: OrganizationChoicesSchema,
      effect: ResourceOperationEffect.READ,
      description:
        'The organizations of the application by name (the first 200), optionally those whose name contains a text.',
    },
    [TokenBudgets_Operations.TENANT]: {
      target: 'collection',
      requestSchema: tenantRequest,
      responseSchema: TenantBudgetSchema,
      effect: ResourceOperationEffect.READ,
      description: "An organization's plans, override, allowance and consumption this UTC month.",
    },
    [TokenBudgets_Operations.ASSIGN_PLAN]: {
      target: 'collection',
      requestSchema: planRequest,
      responseSchema: TenantBudgetSchema,
      effect: ResourceOperationEffect.WRITE,
      description: 'Activates a catalogue plan for an organization (idempotent).',
    },
    [TokenBudgets_Operations.REMOVE_PLAN]: {
      target: 'collection',
      requestSchema: planRequest,
      responseSchema: TenantBudgetSchema,
      effect: ResourceOperationEffect.WRITE,
      description: "Deactivates one of an organization's plans.",
    },
    [TokenBudgets_Operations.SET_OVERRIDE]: {
      target: 'collection',
      requestSchema: overrideRequest,
      responseSchema: TenantBudgetSchema,
      effect: ResourceOperationEffect.WRITE,
      description:
        "Sets an organization's limit of a feature (default: its monthly token allowance) by hand, optionally until a date.",
    },
    [TokenBudgets_Operations.CLEAR_OVERRIDE]: {
      target: 'collection',
      requestSchema: clearOverrideRequest,
      responseSchema: TenantBudgetSchema,
      effect: ResourceOperationEffect.WRITE,
      description: "Removes an organization's manual override of a feature: its plans decide again.",
    },
  },
  operationsConfiguration: {
    [TokenBudgets_Operations.ORGANIZATIONS]: { variants: [admin] },
    [TokenBudgets_Operations.TENANT]: { variants: [admin] },
    [TokenBudgets_Operations.ASSIGN_PLAN]: { variants: [admin] },
    [TokenBudgets_Operations.REMOVE_PLAN]: { variants: [admin] },
    [TokenBudgets_Operations.SET_OVERRIDE]: { variants: [admin] },
    [TokenBudgets_Operations.CLEAR_OVERRIDE]: { variants: [admin] },
  },
});

/**
 * An organization's own consumption, for its members, at `POST /api/v1/organizations/:organizationId/token-usage/current`.
 */
export const tokenUsageResource = defineResource({
  type: 'token-usage',
  displayName: 'Token usage',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: NoRecordSchema,
  customOperations: {
    [TokenUsage_Operations.CURRENT]: {
      target: 'collection',
      requestSchema: z.object({}),
      responseSchema: TokenUsageSchema,
      effect: ResourceOperationEffect.READ,
      description: "The organization's token consumption this UTC month against its allowance, per day.",
    },
  },
  operationsConfiguration: {
    [TokenUsage_Operations.CURRENT]: {
      variants: [{ variantType: API_CALL, isDefault: true, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
    },
  },
});
