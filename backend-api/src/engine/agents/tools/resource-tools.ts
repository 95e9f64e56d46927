import {
  buildResourceTool,
  CoreResourceOperation,
  defaultReadToolDescription,
  installResourceToolRunner,
  READ_TOOL_MAX_RECORDS,
  ResourceReadToolInputSchema,
  resourceToolRef,
  type ResourceTool,
  type ResourceToolCall,
} from '@wildo/shared-lib';
import type { z } from 'zod';
import { FrameworkError } from '../../errors/index.js';
import type { FunctionToolExecutionContext } from './function-tool.types.js';

export { READ_TOOL_MAX_RECORDS };

/** One record by id; with a query, SEARCH when the resource serves it, otherwise LIST. */
async function lookup(
  resourceType: string,
  args: Record<string, unknown>,
  ctx: FunctionToolExecutionContext,
): Promise<unknown> {
  const records = ctx.records(resourceType);
  if (typeof args.id === 'string') return records.get(args.id);
  const limit = typeof args.limit === 'number' ? args.limit : 10;
  if (typeof args.query === 'string' && ctx.serves(resourceType, CoreResourceOperation.SEARCH))
    return records.search(args.query, { limit });
  return records.list({ limit });
}

/**
 * Performs one operation (CREATE, UPDATE or a custom operation) through the tool's caller, so the operation's own
 * admission, validation, handler and projection run. A string `id` addresses the record of an instance operation
 * (the tools' input schemas name it so); every other argument is the body.
 */
async function perform(
  resourceType: string,
  operation: string,
  args: Record<string, unknown>,
  ctx: FunctionToolExecutionContext,
): Promise<unknown> {
  if (operation === CoreResourceOperation.CREATE) return ctx.records(resourceType).create(args);
  const { id, ...input } = args;
  if (typeof id === 'string') return (await ctx.call(resourceType, operation, { id, input })).data;
  if (operation === CoreResourceOperation.UPDATE) {
    throw new FrameworkError('VALIDATION_FAILED', 'The id is required.', {
      reason: 'input_invalid',
      problems: [{ path: 'id', expected: 'required' }],
    });
  }
  return (await ctx.call(resourceType, operation, { input: args })).data;
}

/** Runs every resource tool's call (the handles' tools and the two functions below): identity comes from the conversation. */
function runResourceTool(
  call: ResourceToolCall,
  args: Record<string, unknown>,
  ctx: FunctionToolExecutionContext,
): Promise<unknown> {
  return call.kind === 'lookup'
    ? lookup(call.resourceType, args, ctx)
    : perform(call.resourceType, call.operation, args, ctx);
}

installResourceToolRunner(runResourceTool);

/**
 * A bounded lookup tool over a resource: one record by id; with a query, SEARCH when the resource serves it,
 * otherwise LIST. Refusals (authorization, rate limits) are returned as refusals, never turned into a list.
 * The typed form is the resource handle's `tools.read()`.
 *
 * @example
 * const readTask = resourceReadTool(TasksManager_ResourceType.TODOS); // functionRef 'resource.todos.read'
 */
export function resourceReadTool(resourceType: string): ResourceTool<string, typeof ResourceReadToolInputSchema> {
  return buildResourceTool(resourceToolRef(resourceType, CoreResourceOperation.READ), {
    kind: 'lookup',
    resourceType,
    operation: CoreResourceOperation.READ,
    description: defaultReadToolDescription(resourceType),
    inputSchema: ResourceReadToolInputSchema,
    readOnly: true,
  });
}

/** Options of {@link resourceWriteTool}. */
export interface ResourceWriteToolOptions<TArgs extends z.ZodObject> {
  requiresHumanApproval?: boolean;
  allowArgumentModification?: boolean;
  /** The model-facing contract: `id` addresses the record (UPDATE), every other field is the patch or the new record. */
  inputSchema: TArgs;
  description?: string;
}

/**
 * A tool that creates or updates one record (or runs a custom operation) through the shared dispatch path
 * (authorization, rate policy, strict validation, the operation's handlers, projection). Identity and tenant come
 * from the conversation, never from the model. The typed form is the resource handle's `tools.write(...)`.
 *
 * @example
 * resourceWriteTool('todos', CoreResourceOperation.UPDATE, { requiresHumanApproval: true, inputSchema: z.object({ id: z.string(), title: z.string() }) });
 */
export function resourceWriteTool<TArgs extends z.ZodObject>(
  resourceType: string,
  operation: CoreResourceOperation.CREATE | CoreResourceOperation.UPDATE | (string & {}),
  options: ResourceWriteToolOptions<TArgs>,
): ResourceTool<string, TArgs> {
  const action =
    operation === CoreResourceOperation.CREATE
      ? 'Create'
      : operation === CoreResourceOperation.UPDATE
        ? 'Update'
        : `Run "${operation}" on`;
  return buildResourceTool(resourceToolRef(resourceType, operation), {
    kind: 'operation',
    resourceType,
    operation,
    description: options.description ?? `${action} one ${resourceType} record.`,
    inputSchema: options.inputSchema,
    ...(options.requiresHumanApproval !== undefined ? { requiresHumanApproval: options.requiresHumanApproval } : {}),
    ...(options.allowArgumentModification !== undefined
      ? { allowArgumentModification: options.allowArgumentModification }
      : {}),
  });
}
