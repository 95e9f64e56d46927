import type { ResourceDescription } from '@wildo/shared-lib';
import * as z from 'zod/mini';
import { requestJson } from '../api/api.client';

// The contract lives in @wildo/shared-lib (ResourceDescriptionsResponseSchema); the browser bundle re-states it with
// zod/mini, and the type annotation keeps the two in step.

const JsonSchema = z.record(z.string(), z.unknown());

const OperationSchema = z.object({
  operation: z.string(),
  kind: z.enum(['core', 'custom']),
  displayName: z.string(),
  description: z.optional(z.string()),
  target: z.enum(['collection', 'instance']),
  effect: z.enum(['read', 'write', 'destructive', 'irreversible']),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
  path: z.string(),
  inputSchema: z.optional(JsonSchema),
  allowed: z.boolean(),
  refusal: z.optional(z.string()),
  requiresReauthentication: z.boolean(),
  onlyOwnRecords: z.boolean(),
  lifecycle: z.enum(['experimental', 'beta', 'stable', 'deprecated', 'retired']),
});

const DescriptionsSchema: z.ZodMiniType<{ data: ResourceDescription[] }> = z.object({
  data: z.array(
    z.object({
      type: z.string(),
      displayName: z.string(),
      singular: z.string(),
      module: z.string(),
      builtIn: z.boolean(),
      path: z.string(),
      recordSchema: JsonSchema,
      readOnlyFields: z.array(z.string()),
      filters: z.array(
        z.object({ name: z.string(), displayName: z.string(), schema: JsonSchema, nullable: z.boolean() }),
      ),
      sort: z.object({ order: z.literal('newest_first') }),
      pageSize: z.object({ default: z.number(), max: z.number() }),
      operations: z.array(OperationSchema),
    }),
  ),
});

/** The path of an organization's resource descriptions. */
export function resourceDescriptionsPath(organizationId: string): string {
  return `/api/v1/organizations/${encodeURIComponent(organizationId)}/resource-descriptions`;
}

/** `GET /organizations/:id/resource-descriptions`: the declared resources, with what the signed-in person may run. */
export async function loadResourceDescriptions(
  organizationId: string,
  options: { accessToken: string; signal?: AbortSignal },
): Promise<ResourceDescription[]> {
  const body = await requestJson(resourceDescriptionsPath(organizationId), {
    accessToken: options.accessToken,
    ...(options.signal ? { signal: options.signal } : {}),
    schema: DescriptionsSchema,
  });
  return body.data;
}
