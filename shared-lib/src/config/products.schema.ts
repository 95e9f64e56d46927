import { z } from 'zod';

/** How a product's grant combines with the tenant's other grants of the same feature. */
export enum LimitGrantMode {
  /** The grant sets the limit to its value. */
  SET = 'SET',
}

/** The feature that meters A2A tokens per tenant and UTC calendar month; grant it on a plan, never redeclare it. */
export const A2A_TOKEN_BUDGET_FEATURE_ID = 'a2a.token_budget.monthly';

/** Why the A2A token budget refused a turn. */
export enum A2ATokenBudgetDenialReason {
  /** Consumption this month has reached the allowance. */
  ALLOWANCE_EXHAUSTED = 'ALLOWANCE_EXHAUSTED',
}

/** Whom a product is sold to: an organization (tenant) or a single user. */
export const PRODUCT_SCOPES = ['organization', 'user'] as const;

/** One of {@link PRODUCT_SCOPES}. */
export type ProductScope = (typeof PRODUCT_SCOPES)[number];

const featureId = z
  .string()
  .regex(/^[a-z][a-z0-9._-]{0,126}$/, 'a feature id: lower-case letters, digits, ".", "_" or "-"');

/** One limit a product grants for a feature. */
export const GrantedLimitSchema = z.strictObject({
  value: z.int().min(0),
  mode: z.enum(LimitGrantMode),
});

/** A plan in the application's product catalogue and the feature limits it grants. */
export const ProductDefinitionSchema = z.strictObject({
  ref: z.string().regex(/^[a-z][a-z0-9._-]{0,126}$/, 'a product ref: lower-case letters, digits, ".", "_" or "-"'),
  displayName: z.string().min(1).max(200),
  description: z.string().max(2_000).optional(),
  scope: z.enum(PRODUCT_SCOPES),
  grantedLimits: z.record(featureId, GrantedLimitSchema).default({}),
});

/** The product catalogue; refs must be unique. */
export const ProductCatalogSchema = z.array(ProductDefinitionSchema).superRefine((products, ctx) => {
  const seen = new Map<string, number>();
  products.forEach((product, index) => {
    const first = seen.get(product.ref);
    if (first === undefined) {
      seen.set(product.ref, index);
      return;
    }
    ctx.addIssue({
      code: 'custom',
      path: [index, 'ref'],
      message: `product ref "${product.ref}" is already used by products[${first}]; give each product its own ref`,
    });
  });
});

/** A product as written. */
export type ProductDefinitionInput = z.input<typeof ProductDefinitionSchema>;
/** A product with defaults applied. */
export type ProductDefinition = z.output<typeof ProductDefinitionSchema>;
/** One granted limit. */
export type GrantedLimit = z.output<typeof GrantedLimitSchema>;
