import { CoreResourceOperation } from '@wildo/shared-lib';
import { FrameworkError } from '../../errors/index.js';
import type { WithheldValue } from '../../governance/index.js';
import type { AuthenticatedPrincipal } from '../../identity/index.js';
import {
  servicePathOf,
  type CompiledOperation,
  type DispatchRequest,
  type DispatchResult,
  type DispatchSurface,
  type OperationDispatcher,
  type ResourcesRegistry,
} from '../../resources/index.js';

/** Who a tool acts for: the conversation's verified owner, organization and request, never the model. */
export interface ToolCallIdentity {
  principal: AuthenticatedPrincipal;
  organizationId?: string;
  requestId: string;
  /** The rate-limit bucket its calls are charged to: `tool` unless the turn came through a resource server (`a2a`). */
  surface?: DispatchSurface;
  /** Told what projection withheld from a dispatch's result (only when it withheld something). */
  onWithheld?: (withheld: readonly WithheldValue[]) => void;
  /** The person approved this tool call in the conversation: its dispatches pass the `approval` step. */
  conversationApproval?: { approvalId: string };
}

/** One call to one operation, as a tool makes it. */
export interface ToolOperationCall {
  /** The addressed record (instance operations). */
  id?: string;
  /** The request body: the new record or the patch (CREATE, UPDATE), the query (SEARCH), a custom operation's input. */
  input?: unknown;
  /** LIST arguments as JSON values: `limit`, `cursor` and declared filters. */
  list?: Record<string, unknown>;
  /** A named variant of the operation instead of its default. */
  variant?: string;
  /** The record version the tool last saw: the write is refused if the record changed since. */
  expectedVersion?: number;
}

/** A projected result: `data`, `nextCursor` for pages, `version` for single records. */
export type ToolCallResult = DispatchResult;

/** A page of projected records. */
export interface ToolRecordPage {
  data: unknown;
  nextCursor: string | null;
}

/** Options of {@link ToolRecords.list}. */
export interface ToolListOptions {
  limit?: number;
  cursor?: string;
  /** Declared filters of the LIST operation, by field. */
  filters?: Record<string, string | number | boolean | null>;
}

/** The record operations of one resource type, each a call through the dispatch path. */
export interface ToolRecords {
  /** One record by id (READ). */
  get(id: string): Promise<unknown>;
  /** A page of records (LIST). */
  list(options?: ToolListOptions): Promise<ToolRecordPage>;
  /** A page of records matching words (SEARCH). */
  search(query: string, options?: { limit?: number; cursor?: string }): Promise<ToolRecordPage>;
  /** Creates one record (CREATE). */
  create(input: Record<string, unknown>): Promise<unknown>;
  /** Patches one record (UPDATE). */
  update(id: string, patch: Record<string, unknown>, options?: { expectedVersion?: number }): Promise<unknown>;
  /** Deletes one record (DELETE). */
  delete(id: string, options?: { expectedVersion?: number }): Promise<unknown>;
}

/**
 * What a function tool may call: declared operations, through the same dispatch path as REST and MCP (lifecycle,
 * the caller's tenant and roles, the rate policy of the `tool` surface, strict input, the service pipeline,
 * projection). There is no other way to the records: a tool reaches exactly what its caller may reach.
 *
 * @example
 * const open = await ctx.records('todos').list({ limit: 5, filters: { status: 'open' } });
 * const answer = await ctx.call('knowledge-documents', 'ask', { input: { question } });
 */
export interface ToolCaller {
  /** Calls one declared operation (core or custom) of a resource type. */
  call(resourceType: string, operation: string, args?: ToolOperationCall): Promise<ToolCallResult>;
  /** The record operations of a resource type. */
  records(resourceType: string): ToolRecords;
  /** Whether a resource type serves an operation to callers: declared, implemented, not `INTERNAL`. */
  serves(resourceType: string, operation: string): boolean;
}

/** What a caller dispatches through: the engine's dispatcher and the operations it knows. */
export interface ToolDispatchPath {
  dispatch(request: DispatchRequest): Promise<DispatchResult>;
  findOperation(servicePath: string): CompiledOperation | undefined;
}

const page = (result: DispatchResult): ToolRecordPage => ({ data: result.data, nextCursor: result.nextCursor ?? null });

/**
 * The caller of one tool call, bound to the conversation's identity. Every entry point builds a
 * {@link DispatchRequest} with that principal, the `tool` surface and the conversation's organization.
 */
export function createToolCaller(path: ToolDispatchPath, identity: ToolCallIdentity): ToolCaller {
  const { principal } = identity;
  const contextIds = identity.organizationId ? { organizationId: identity.organizationId } : {};
  const resolve = (resourceType: string, operation: string, variant?: string): CompiledOperation => {
    const found = path.findOperation(servicePathOf(resourceType, operation, variant));
    if (!found) throw new FrameworkError('NOT_FOUND', 'No such operation.');
    return found;
  };
  const { onWithheld } = identity;
  const call = async (
    resourceType: string,
    operation: string,
    args: ToolOperationCall = {},
  ): Promise<DispatchResult> => {
    const result = await path.dispatch({
      operation: resolve(resourceType, operation, args.variant),
      principal,
      surface: identity.surface ?? 'tool',
      requestId: identity.requestId,
      contextIds,
      ...(args.id !== undefined ? { id: args.id } : {}),
      ...(args.input !== undefined ? { body: args.input } : {}),
      ...(args.list !== undefined ? { listArguments: args.list } : {}),
      ...(args.expectedVersion !== undefined ? { expectedVersion: args.expectedVersion } : {}),
      ...(identity.conversationApproval ? { conversationApproval: identity.conversationApproval } : {}),
    });
    if (onWithheld && result.withheld) onWithheld(result.withheld);
    return result;
  };
  const records = (resourceType: string): ToolRecords => {
    const run = (operation: CoreResourceOperation, args?: ToolOperationCall) => call(resourceType, operation, args);
    return {
      get: async (id) => (await run(CoreResourceOperation.READ, { id })).data,
      list: async ({ filters, limit, cursor } = {}) => {
        const list = {
          ...filters,
          ...(limit !== undefined ? { limit } : {}),
          ...(cursor !== undefined ? { cursor } : {}),
        };
        return page(await run(CoreResourceOperation.LIST, { list }));
      },
      search: async (query, options = {}) =>
        page(await run(CoreResourceOperation.SEARCH, { input: { query, ...options } })),
      create: async (input) => (await run(CoreResourceOperation.CREATE, { input })).data,
      update: async (id, patch, options = {}) =>
        (await run(CoreResourceOperation.UPDATE, { id, input: patch, ...options })).data,
      delete: async (id, options = {}) => (await run(CoreResourceOperation.DELETE, { id, ...options })).data,
    };
  };
  const serves = (resourceType: string, operation: string): boolean =>
    path.findOperation(servicePathOf(resourceType, operation))?.http !== undefined;
  return { call, records, serves };
}

/** The path tools dispatch through: the engine's one dispatcher, and its registry for looking operations up. */
export function toolDispatchPath(
  dispatcher: Pick<OperationDispatcher, 'dispatch'>,
  registry: Pick<ResourcesRegistry, 'findOperation'>,
): ToolDispatchPath {
  return {
    dispatch: (request) => dispatcher.dispatch(request),
    findOperation: (servicePath) => registry.findOperation(servicePath),
  };
}
