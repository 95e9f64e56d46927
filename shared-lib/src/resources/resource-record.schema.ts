import { z } from 'zod';
import { ResourcePrimaryScope } from '../models/resource-scope.js';

/** The fields the engine writes on every record of a resource of this scope, besides `_id`. */
export function resourceSystemFields(scope: ResourcePrimaryScope) {
  return {
    ...(scope === ResourcePrimaryScope.ORGANIZATIONS ? { organizationId: z.string() } : {}),
    ...(scope === ResourcePrimaryScope.USER ? { userId: z.string() } : {}),
    /** Null when a machine principal (API key, OAuth client) created the record. */
    createdByUserId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  };
}

/**
 * A record as the API returns it: the system fields plus the resource's declared fields. Use it as the
 * response contract of custom operations that return the record, and to type records in clients.
 *
 * @example
 * const TodoRecordSchema = resourceRecordSchema(TodoSchema, ResourcePrimaryScope.ORGANIZATIONS);
 */
export function resourceRecordSchema<TShape extends z.ZodRawShape>(
  schema: z.ZodObject<TShape>,
  scope: ResourcePrimaryScope,
) {
  // `_id` first, the declared fields, then the other system fields: the order records are serialized in.
  return z.object({ _id: z.string(), ...schema.shape, ...resourceSystemFields(scope) });
}
