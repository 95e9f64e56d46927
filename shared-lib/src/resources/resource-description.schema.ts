import { z } from 'zod';
import { RESOURCE_OPERATION_LIFECYCLES, type ResourceOperationEffect } from '../models/resource-operation.js';

/** The effects by value (what the wire carries), every one of {@link ResourceOperationEffect}. */
const EFFECTS = [
  'read',
  'write',
  'destructive',
  'irreversible',
] as const satisfies readonly `${ResourceOperationEffect}`[];

/** A JSON Schema document (draft 2020-12), as `z.toJSONSchema` writes it. */
const JsonSchemaDocument = z.record(z.string(), z.unknown());

/** One declared LIST filter: the field it filters on and the values it accepts. */
export const ResourceFilterDescriptionSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  /** What a value must satisfy (an enum's `enum`, a number's bounds, ...). */
  schema: JsonSchemaDocument,
  /** Whether `null` matches records whose field is empty. */
  nullable: z.boolean(),
});

/** One operation of a resource as the signed-in caller sees it: where it is, what it takes, and whether they may run it. */
export const ResourceOperationDescriptionSchema = z.object({
  /** The core operation (`create`, `list`, ...) or the custom operation's key (`close`). */
  operation: z.string(),
  kind: z.enum(['core', 'custom']),
  displayName: z.string(),
  description: z.string().optional(),
  /** `collection` operations address the list; `instance` ones one record (`:id` in `path`). */
  target: z.enum(['collection', 'instance']),
  effect: z.enum(EFFECTS),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
  /** The URL path, absolute from the host (`/api/v1/organizations/<id>/todos/:id/complete`). */
  path: z.string(),
  /** The body it accepts (CREATE, UPDATE, SEARCH and custom operations); absent: no body. */
  inputSchema: JsonSchemaDocument.optional(),
  /** Whether this caller's role and the operation's policies admit them (the dispatch path's own admission checks). */
  allowed: z.boolean(),
  /** Why not, when `allowed` is false: the refusal reason the dispatch path would answer with. */
  refusal: z.string().optional(),
  /** A fresh re-authentication proof must accompany the call. */
  requiresReauthentication: z.boolean(),
  /** The caller reaches only the records they created through it. */
  onlyOwnRecords: z.boolean(),
  lifecycle: z.enum(RESOURCE_OPERATION_LIFECYCLES),
});

/** A declared resource as the host UI renders it: names, fields, filters, order and operations. */
export const ResourceDescriptionSchema = z.object({
  type: z.string(),
  displayName: z.string(),
  /** The singular noun (`todo`). */
  singular: z.string(),
  /** The module that declares it. */
  module: z.string(),
  /** Declared by the engine itself (API keys, OAuth clients, usage): the host UI has pages of its own for those. */
  builtIn: z.boolean(),
  /** The collection's URL path, absolute from the host. */
  path: z.string(),
  /** The record as the API returns it (system fields included), as JSON Schema. */
  recordSchema: JsonSchemaDocument,
  /** Fields callers read but never send: the system fields and the declared read-only ones. */
  readOnlyFields: z.array(z.string()),
  filters: z.array(ResourceFilterDescriptionSchema),
  /** The order LIST returns records in. */
  sort: z.object({ order: z.literal('newest_first') }),
  pageSize: z.object({ default: z.number(), max: z.number() }),
  operations: z.array(ResourceOperationDescriptionSchema),
});

/** `GET /api/v1/organizations/:organizationId/resource-descriptions`: the organization's declared resources. */
export const ResourceDescriptionsResponseSchema = z.object({ data: z.array(ResourceDescriptionSchema) });

/** One filter of a {@link ResourceDescription}. */
export type ResourceFilterDescription = z.infer<typeof ResourceFilterDescriptionSchema>;
/** One operation of a {@link ResourceDescription}. */
export type ResourceOperationDescription = z.infer<typeof ResourceOperationDescriptionSchema>;
/** A declared resource as the host UI renders it. */
export type ResourceDescription = z.infer<typeof ResourceDescriptionSchema>;
