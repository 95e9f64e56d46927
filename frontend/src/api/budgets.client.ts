import * as z from 'zod/mini';
import { requestJson } from './api.client';

const AllowanceFields = {
  value: z.nullable(z.number()),
  source: z.string(),
  grantingProductRefs: z.array(z.string()),
  overrideExpiresAt: z.optional(z.string()),
};
const UsageFields = {
  allowance: z.object(AllowanceFields),
  consumedTokens: z.number(),
  period: z.string(),
  resetsAt: z.string(),
  daily: z.array(z.object({ day: z.string(), consumedTokens: z.number() })),
};
const UsageSchema = z.object(UsageFields);
const TenantBudgetSchema = z.object({
  ...UsageFields,
  organizationId: z.string(),
  organizationName: z.string(),
  plans: z.array(z.string()),
  features: z.array(z.object({ ...AllowanceFields, featureId: z.string() })),
  availablePlans: z.array(z.object({ ref: z.string(), displayName: z.string() })),
});

const OrganizationChoicesSchema = z.object({
  organizations: z.array(z.object({ _id: z.string(), name: z.string() })),
  truncated: z.boolean(),
});

/** A tenant's consumption this UTC month against its allowance, per day. */
export type TokenUsage = z.infer<typeof UsageSchema>;
/** An organization's budget as application admins see it. */
export type TenantBudget = z.infer<typeof TenantBudgetSchema>;
/** The organizations an application admin picks from. */
export type OrganizationChoices = z.infer<typeof OrganizationChoicesSchema>;

/** `POST /api/v1/organizations/:id/token-usage/current` (members). */
export async function fetchTokenUsage(organizationId: string, accessToken: string, signal?: AbortSignal) {
  const body = await requestJson(`/api/v1/organizations/${encodeURIComponent(organizationId)}/token-usage/current`, {
    method: 'POST',
    body: {},
    accessToken,
    signal,
    schema: z.object({ data: UsageSchema }),
  });
  return body.data;
}

/** The application admins' budget operations (`POST /api/v1/token-budgets/<operation>`). */
export type BudgetOperation = 'tenant' | 'assign-plan' | 'remove-plan' | 'set-override' | 'clear-override';

/** Runs one budget operation; answers the organization's budget after it. */
export async function budgetOperation(
  operation: BudgetOperation,
  body: Record<string, unknown>,
  accessToken: string,
): Promise<TenantBudget> {
  const answer = await requestJson(`/api/v1/token-budgets/${operation}`, {
    method: 'POST',
    body,
    accessToken,
    schema: z.object({ data: TenantBudgetSchema }),
  });
  return answer.data;
}

/** `POST /api/v1/token-budgets/organizations` (application admins): the organizations by name, optionally filtered. */
export async function listOrganizationChoices(nameContains: string, accessToken: string, signal?: AbortSignal) {
  const answer = await requestJson('/api/v1/token-budgets/organizations', {
    method: 'POST',
    body: nameContains.trim() ? { nameContains: nameContains.trim() } : {},
    accessToken,
    signal,
    schema: z.object({ data: OrganizationChoicesSchema }),
  });
  return answer.data;
}
