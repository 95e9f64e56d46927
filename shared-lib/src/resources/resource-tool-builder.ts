import { z } from 'zod';
import { CoreResourceOperation, ResourceOperationEffect } from '../models/resource-operation.js';
import type { AnyResourceDeclaration } from './resource-declaration.js';
import type { ResourceTool, ResourceToolContext } from './resource-handle.types.js';

/** The most records a read tool returns: a lookup, not an export. */
export const READ_TOOL_MAX_RECORDS = 20;

/** The read tool's model-facing contract. */
export const ResourceReadToolInputSchema = z.strictObject({
  id: z.string().min(1).max(64).optional().describe('Id of one record to read.'),
  query: z.string().trim().min(1).max(500).optional().describe('Words to search for.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_TOOL_MAX_RECORDS)
    .optional()
    .describe(`How many records (at most ${READ_TOOL_MAX_RECORDS}).`),
});

const RecordIdSchema = z.string().min(1).max(64).describe('Id of the record.');

/**
 * What a resource tool asks the engine to do with the model's arguments: a `lookup` (one record by id, a search
 * or a listing) or one `operation` (whose `id` argument addresses the record when the operation targets one).
 */
export interface ResourceToolCall {
  kind: 'lookup' | 'operation';
  resourceType: string;
  operation: string;
}

/** Runs a resource tool's call through the engine's dispatch path; installed by the engine. */
export type ResourceToolRunner = (
  call: ResourceToolCall,
  args: Record<string, unknown>,
  ctx: ResourceToolContext,
) => Promise<unknown>;

let installedRunner: ResourceToolRunner | undefined;

/**
 * Installs how resource tools run. The engine calls it once when it loads (tools only run inside the engine, so it
 * is always installed by then); declarations stay plain data and need nothing from the engine to be written.
 */
export function installResourceToolRunner(runner: ResourceToolRunner): void {
  installedRunner = runner;
}

/** What a resource tool is built from (the declaration-derived parts; execution belongs to the engine). */
export interface ResourceToolSpec<TArgs extends z.ZodObject = z.ZodObject> {
  kind: ResourceToolCall['kind'];
  resourceType: string;
  operation: string;
  description: string;
  inputSchema: TArgs;
  readOnly?: boolean;
  requiresHumanApproval?: boolean;
  allowArgumentModification?: boolean;
}

/**
 * Builds a function tool over one resource operation, named `resource.<type>.<operation>`. Used by the handles'
 * `tools` and by the engine's `resourceReadTool` / `resourceWriteTool`, so both produce the same tools.
 */
export function buildResourceTool<TRef extends string, TArgs extends z.ZodObject>(
  functionRef: TRef,
  spec: ResourceToolSpec<TArgs>,
): ResourceTool<TRef, TArgs> {
  const call: ResourceToolCall = { kind: spec.kind, resourceType: spec.resourceType, operation: spec.operation };
  return {
    functionRef,
    description: spec.description,
    inputSchema: spec.inputSchema,
    ...(spec.readOnly !== undefined ? { readOnly: spec.readOnly } : {}),
    ...(spec.requiresHumanApproval !== undefined ? { requiresHumanApproval: spec.requiresHumanApproval } : {}),
    ...(spec.allowArgumentModification !== undefined
      ? { allowArgumentModification: spec.allowArgumentModification }
      : {}),
    resourceOperation: { resourceType: spec.resourceType, operation: spec.operation },
    async execute(args: Record<string, unknown>, ctx: ResourceToolContext) {
      if (!installedRunner)
        throw new Error(`The tool "${functionRef}" runs only inside the Wildo engine (no engine is loaded).`);
      return installedRunner(call, args, ctx);
    },
  };
}

/** The function ref of the tool over `operation` of `resourceType`. */
export function resourceToolRef<const TType extends string, const TOperation extends string>(
  resourceType: TType,
  operation: TOperation,
): `resource.${TType}.${TOperation}` {
  return `resource.${resourceType}.${operation}`;
}

/** The declared fields a caller may send (neither read-only nor internal), with their schemas. */
function writableShape(declaration: AnyResourceDeclaration): Record<string, z.ZodType> {
  const serverOnly = new Set<string>([...(declaration.readOnlyFields ?? []), ...(declaration.internalFields ?? [])]);
  return Object.fromEntries(Object.entries(declaration.schema.shape).filter(([name]) => !serverOnly.has(name)));
}

/** The default model-facing contract of a write tool over `operation` (see `ResourceWriteToolOptions.inputSchema`). */
export function defaultWriteToolInput(declaration: AnyResourceDeclaration, operation: string): z.ZodObject {
  if (operation === CoreResourceOperation.CREATE) return z.strictObject(writableShape(declaration));
  if (operation === CoreResourceOperation.UPDATE) {
    const optional = Object.fromEntries(
      Object.entries(writableShape(declaration)).map(([name, field]) => [name, field.optional()]),
    );
    return z.strictObject({ id: RecordIdSchema, ...optional });
  }
  const custom = declaration.customOperations?.[operation];
  if (!custom)
    throw new Error(`resource "${declaration.type}" declares no operation "${operation}" a write tool can call`);
  return custom.target === 'instance'
    ? z.strictObject({ id: RecordIdSchema, ...custom.requestSchema.shape })
    : custom.requestSchema;
}

/** The default description of a read tool. */
export function defaultReadToolDescription(resourceType: string): string {
  return `Look up ${resourceType}: one record by id, or a short list (optionally matching a query).`;
}

/** The default description of a write tool: the operation's own, or one naming the action and the resource. */
export function defaultWriteToolDescription(declaration: AnyResourceDeclaration, operation: string): string {
  if (operation === CoreResourceOperation.CREATE) return `Create one ${declaration.type} record.`;
  if (operation === CoreResourceOperation.UPDATE) return `Update one ${declaration.type} record.`;
  const custom = declaration.customOperations?.[operation];
  return custom?.description ?? `Run "${operation}" on ${declaration.type}.`;
}

/** Whether a write tool over `operation` only reads (a custom operation whose effect is READ). */
export function writeToolOnlyReads(declaration: AnyResourceDeclaration, operation: string): boolean {
  return declaration.customOperations?.[operation]?.effect === ResourceOperationEffect.READ;
}
