import { CoreResourceOperation } from '@wildo/shared-lib';
import { z } from 'zod';
import { FrameworkError } from '../../errors/index.js';
import type { DispatchRequest } from '../../resources/operation-dispatcher.service.js';
import type { FunctionTool, FunctionToolExecutionContext } from './function-tool.types.js';

/** The most records a read tool returns: a lookup, not an export. */
export const READ_TOOL_MAX_RECORDS = 20;

function dispatch(ctx: FunctionToolExecutionContext, request: Omit<DispatchRequest, 'principal' | 'surface' | 'requestId' | 'contextIds'>) {
  return ctx.services.operationDispatcher.dispatch({
    ...request,
    principal: ctx.auth,
    surface: 'tool',
    requestId: ctx.requestId,
    contextIds: ctx.organizationId ? { organizationId: ctx.organizationId } : {},
  });
}

const ReadToolInput = z.strictObject({
  id: z.string().min(1).max(64).optional().describe('Id of one record to read.'),
  query: z.string().trim().min(1).max(500).optional().describe('Words to search for.'),
  limit: z.number().int().min(1).max(READ_TOOL_MAX_RECORDS).optional().describe(`How many records (at most ${READ_TOOL_MAX_RECORDS}).`),
});

/**
 * A bounded lookup tool over a resource: one record by id; with a query, SEARCH when the resource serves it,
 * otherwise LIST. Refusals (authorization, rate limits) are returned as refusals, never turned into a list.
 *
 * @example
 * const readTask = resourceReadTool(TasksManager_ResourceType.TODOS); // functionRef 'resource.todos.read'
 */
export function resourceReadTool(resourceType: string): FunctionTool<typeof ReadToolInput> {
  return {
    functionRef: `resource.${resourceType}.${CoreResourceOperation.READ}`,
    resourceOperation: { resourceType, operation: CoreResourceOperation.READ },
    description: `Look up ${resourceType}: one record by id, or a short list (optionally matching a query).`,
    inputSchema: ReadToolInput,
    readOnly: true,
    async execute(args, ctx) {
      const registry = ctx.services.resourcesRegistry;
      const path = (operation: string) => registry.getServiceOperationPathDefault(resourceType, operation);
      if (args.id) return (await dispatch(ctx, { operation: registry.getOperationFromPath(path(CoreResourceOperation.READ)), id: args.id })).data;
      const limit = args.limit ?? 10;
      const search = registry.findOperation(path(CoreResourceOperation.SEARCH));
      if (args.query && search?.http) {
        const page = await dispatch(ctx, { operation: search, body: { query: args.query, limit } });
        return { data: page.data, nextCursor: page.nextCursor ?? null };
      }
      const list = registry.findOperation(path(CoreResourceOperation.LIST));
      if (!list) throw new FrameworkError('NOT_IMPLEMENTED', 'This resource cannot be listed.');
      const page = await dispatch(ctx, { operation: list, listArguments: { limit } });
      return { data: page.data, nextCursor: page.nextCursor ?? null };
    },
  };
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
 * A tool that creates or updates one record through the shared dispatch path (authorization, rate policy,
 * strict validation, projection). Identity and tenant come from the conversation, never from the model.
 *
 * @example
 * resourceWriteTool('todos', CoreResourceOperation.UPDATE, { requiresHumanApproval: true, inputSchema: z.object({ id: z.string(), title: z.string() }) });
 */
export function resourceWriteTool<TArgs extends z.ZodObject>(
  resourceType: string,
  operation: CoreResourceOperation.CREATE | CoreResourceOperation.UPDATE,
  options: ResourceWriteToolOptions<TArgs>,
): FunctionTool<TArgs> {
  return {
    functionRef: `resource.${resourceType}.${operation}`,
    resourceOperation: { resourceType, operation },
    description: options.description ?? `${operation === CoreResourceOperation.CREATE ? 'Create' : 'Update'} one ${resourceType} record.`,
    inputSchema: options.inputSchema,
    ...(options.requiresHumanApproval !== undefined ? { requiresHumanApproval: options.requiresHumanApproval } : {}),
    ...(options.allowArgumentModification !== undefined ? { allowArgumentModification: options.allowArgumentModification } : {}),
    async execute(args, ctx) {
      const registry = ctx.services.resourcesRegistry;
      const compiled = registry.getOperationFromPath(registry.getServiceOperationPathDefault(resourceType, operation));
      const { id, ...rest } = args as Record<string, unknown>;
      if (operation === CoreResourceOperation.UPDATE) {
        if (typeof id !== 'string') throw new FrameworkError('VALIDATION_FAILED', 'The id is required.', { reason: 'input_invalid', problems: [{ path: 'id', expected: 'required' }] });
        return (await dispatch(ctx, { operation: compiled, id, body: rest })).data;
      }
      return (await dispatch(ctx, { operation: compiled, body: args })).data;
    },
  };
}
