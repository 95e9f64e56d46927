import { CoreResourceOperation } from '@wildo/shared-lib';
import type { OperationApprovals } from '../approvals/index.js';
import { FrameworkError, toFrameworkError } from '../errors/index.js';
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
import { declaresCapability, type McpClientChannel } from './mcp-client-requests.js';
import type { RequestStateCodec } from './mcp-request-state.js';
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
  /** The 2026-07-28 revision: no server requests, `input_required` rounds instead. */
  stateless?: boolean;
  /** A retried round's answers and echoed state (2026-07-28). */
  inputResponses?: Record<string, unknown>;
  requestState?: unknown;
  /** An approval decided on the approvals page, sent back as `_meta["dev.wildo/approvalId"]`. */
  approvalId?: string;
  /** The handshake revisions' channel to the client within this call (present when the answer can stream). */
  client?: McpClientChannel;
}

/** The key of the approval question in `input_required` rounds and elicitation answers. */
const APPROVAL_INPUT = 'approval';
/** What the person answers: approve or not. */
const APPROVAL_SCHEMA = {
  type: 'object',
  properties: {
    approve: { type: 'boolean', title: 'Approve this call', description: 'Run the call exactly as shown.' },
  },
  required: ['approve'],
};

/** Whether an elicitation answer approves: accepted, with `approve: true`. */
function approves(answer: unknown): boolean {
  const reply = answer as { action?: unknown; content?: { approve?: unknown } } | undefined;
  return reply?.action === 'accept' && reply.content?.approve === true;
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
    private readonly approvals?: Pick<OperationApprovals, 'answerFromClient'>,
    private readonly requestStates?: RequestStateCodec,
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
      if (error instanceof InputRequired) return error.result as unknown as McpToolResult;
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
      ...(call.client ? clientContext(call.client, call.clientCapabilities) : {}),
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
    const result = operation.approval
      ? await this.dispatchApproved(request, call)
      : await this.dispatcher.dispatch(request);
    const structured =
      result.nextCursor !== undefined ? { data: result.data, nextCursor: result.nextCursor } : result.data;
    return successResult(structured, result.withheld ?? []);
  }

  /**
   * A call to an operation that declares approval. Without one, the approval step opens a pending approval and
   * refuses; the client is then asked, by the revision's means: an `input_required` round (2026-07-28) or an
   * `elicitation/create` request on the call's stream (handshake revisions), when it declared elicitation; otherwise
   * the refusal names the approvals page, and the call is sent again with `_meta["dev.wildo/approvalId"]`.
   */
  private async dispatchApproved(request: DispatchRequest, call: ToolCall) {
    if (call.requestState !== undefined) {
      if (!this.requestStates || !this.approvals) throw notEvaluable();
      const { approvalId } = this.requestStates.decode(call.requestState, call.principal, call.name, call.arguments);
      const answer = call.inputResponses?.[APPROVAL_INPUT];
      await this.approvals.answerFromClient(call.principal, approvalId, approves(answer) ? 'approve' : 'deny');
      return this.dispatcher.dispatch({ ...request, approvalId });
    }
    if (call.approvalId !== undefined) return this.dispatcher.dispatch({ ...request, approvalId: call.approvalId });
    try {
      return await this.dispatcher.dispatch(request);
    } catch (error) {
      const pending =
        error instanceof FrameworkError && error.reason === 'approval_required' ? error.approval : undefined;
      if (!pending || !declaresCapability(call.clientCapabilities, 'elicitation')) throw error;
      const question = {
        mode: 'form',
        message: `${call.name} needs your approval before it runs, with exactly these arguments:\n${JSON.stringify(call.arguments, null, 2)}`,
        requestedSchema: APPROVAL_SCHEMA,
      };
      if (call.stateless) {
        if (!this.requestStates) throw error;
        throw new InputRequired({
          resultType: 'input_required',
          inputRequests: { [APPROVAL_INPUT]: { method: 'elicitation/create', params: question } },
          requestState: this.requestStates.encode(
            { approvalId: pending.id },
            call.principal,
            call.name,
            call.arguments,
          ),
        });
      }
      if (!call.client || !this.approvals) throw error;
      const answer = await call.client.request('elicitation/create', question);
      await this.approvals.answerFromClient(call.principal, pending.id, approves(answer) ? 'approve' : 'deny');
      return this.dispatcher.dispatch({ ...request, approvalId: pending.id });
    }
  }
}

/** Thrown to answer a call with an `input_required` result instead of a tool result (2026-07-28). */
export class InputRequired extends Error {
  override readonly name = 'InputRequired';
  constructor(readonly result: Record<string, unknown>) {
    super('input required');
  }
}

const notEvaluable = () =>
  new FrameworkError('SERVICE_UNAVAILABLE', 'Approvals cannot be checked right now; try again later.', {
    reason: 'approval_not_evaluable',
  });

/** What a custom tool may ask of its client within the call (handshake revisions, when the answer streams). */
function clientContext(client: McpClientChannel, capabilities: unknown): Partial<McpCustomToolContext> {
  return {
    log: (level, data) => client.notify('notifications/message', { level, data }),
    ...(declaresCapability(capabilities, 'elicitation')
      ? { elicit: (params: Record<string, unknown>) => client.request('elicitation/create', params) }
      : {}),
    ...(declaresCapability(capabilities, 'sampling')
      ? { createMessage: (params: Record<string, unknown>) => client.request('sampling/createMessage', params) }
      : {}),
  };
}
