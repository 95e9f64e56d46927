import { CoreResourceOperation } from '@wildo/shared-lib';
import { toFrameworkError } from '../errors/index.js';
import type { AuthenticatedPrincipal, PrincipalDirectory } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import {
  checkLifecycle,
  refuseUnstorableText,
  type DispatchRequest,
  type OperationDispatcher,
} from '../resources/index.js';
import { callOrganization, toolInputInvalid } from './call-organization.js';
import { JsonRpcWireError } from '../jsonrpc/index.js';
import { RPC_ERRORS } from './mcp-protocol.js';
import { errorResult, successResult } from './mcp-results.js';
import { McpClientCapabilityRequired, type McpCustomToolContext, type McpToolResult } from './mcp-tools.types.js';
import type { McpToolCatalogue, McpToolEntry, ResourceToolBinding } from './tool-catalogue.service.js';

/** A `tools/call` as the wire layer received it. */
export interface ToolCall {
  instance: string | undefined;
  principal: AuthenticatedPrincipal;
  name: string;
  arguments: Record<string, unknown>;
  requestId: string;
  clientCapabilities?: unknown;
  progress?: McpCustomToolContext['progress'];
}

/**
 * Runs a `tools/call`: finds the tool on the addressed catalogue (unknown names dispatch nothing), maps its
 * arguments onto the shared dispatch path (surface `mcp`, its own rate-limit bucket) and renders the projected
 * result or the refusal as a governed tool result.
 */
export class McpToolCallService {
  constructor(
    private readonly catalogue: McpToolCatalogue,
    private readonly dispatcher: OperationDispatcher,
    private readonly directory: PrincipalDirectory,
    private readonly logger: Logger,
  ) {}

  /** The result of one call; a wire error for an unknown tool or a missing client capability. */
  async call(call: ToolCall): Promise<McpToolResult> {
    const entry = this.catalogue.catalogue(call.instance)?.get(call.name);
    // The submitted name is not repeated: refusals never echo input.
    if (!entry) throw new JsonRpcWireError(200, RPC_ERRORS.INVALID_PARAMS, 'Unknown tool.');
    try {
      if (entry.custom) {
        refuseUnstorableText(call.arguments);
        return await entry.custom.call(call.arguments, this.customContext(call));
      }
      return await this.callResource(entry, call);
    } catch (error) {
      if (error instanceof McpClientCapabilityRequired) {
        throw new JsonRpcWireError(400, RPC_ERRORS.MISSING_CLIENT_CAPABILITY, error.message, {
          requiredCapabilities: { [error.capability]: {} },
        });
      }
      if (error instanceof JsonRpcWireError) throw error;
      const framework = toFrameworkError(error);
      if (framework.code === 'INTERNAL')
        this.logger.error('MCP tool failed', {
          tool: call.name,
          requestId: call.requestId,
          error: String(framework.cause ?? error),
        });
      // Authentication failures stay HTTP authentication signals; everything else becomes a tool result.
      if (framework.code === 'UNAUTHENTICATED') throw framework;
      return errorResult(call.name, framework);
    }
  }

  private customContext(call: ToolCall): McpCustomToolContext {
    return {
      principal: call.principal,
      requestId: call.requestId,
      ...(call.instance ? { instance: call.instance } : {}),
      ...(call.clientCapabilities !== undefined ? { clientCapabilities: call.clientCapabilities } : {}),
      ...(call.progress ? { progress: call.progress } : {}),
    };
  }

  private async callResource(entry: McpToolEntry, call: ToolCall): Promise<McpToolResult> {
    const binding = entry.resource as ResourceToolBinding;
    const { operation } = binding;
    // Lifecycle comes first on the shared path: a retired tool is refused whatever arguments it was sent,
    // before the addressing arguments below are checked (or the directory is read for the organization).
    checkLifecycle(operation);
    // The addressing arguments below reach the directory and SQL before the contract does: checked here first.
    refuseUnstorableText(call.arguments);
    const args = { ...call.arguments };
    let id: string | undefined;
    if (binding.idArgument) {
      const value = args[binding.idArgument];
      if (typeof value !== 'string' || value.length === 0) throw toolInputInvalid(binding.idArgument, 'required');
      id = value;
      delete args[binding.idArgument];
    }
    const organizationId = binding.organizationArgument
      ? await callOrganization(this.directory, call.principal, args.organizationId)
      : undefined;
    delete args.organizationId;
    const request: DispatchRequest = {
      operation,
      principal: call.principal,
      surface: 'mcp',
      requestId: call.requestId,
      contextIds: organizationId ? { organizationId } : {},
      ...(id ? { id } : {}),
      ...(operation.core === CoreResourceOperation.LIST ? { listArguments: args } : { body: args }),
    };
    const result = await this.dispatcher.dispatch(request);
    const structured =
      result.nextCursor !== undefined ? { data: result.data, nextCursor: result.nextCursor } : result.data;
    return successResult(structured, result.withheld ?? []);
  }
}
