import { randomUUID } from 'node:crypto';
import { ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { createWildoBackend, type WildoBackend, type WildoBackendOptions } from '../bootstrap/index.js';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { AuthenticatedPrincipal, Authenticator, MachinePrincipal, PrincipalDirectory } from '../identity/index.js';
import { JsonRpcWireError } from '../jsonrpc/index.js';
import type { Logger } from '../logging/index.js';
import { McpToolCallService, type McpToolCatalogue, type McpToolResult } from '../mcp/index.js';
import type { OperationDispatcher } from '../resources/index.js';
import {
  embeddedToolsOf,
  toolDefinitions,
  type EmbeddedTool,
  type VendorFormat,
  type VendorToolDefinitions,
} from './vendor-tools.js';

/** Options of {@link createEmbeddedWildo}: those of `createWildoBackend` (nothing listens), and the catalogue used. */
export interface EmbeddedWildoOptions extends WildoBackendOptions {
  /** The named MCP instance whose tools are offered; default: the default catalogue. */
  instance?: string;
}

/** Options of one {@link EmbeddedWildo.execute} call. */
export interface ExecuteOptions {
  /** Who calls: the verified principal the application vouches for (see {@link embeddedPrincipal}). */
  principal: AuthenticatedPrincipal;
  /** A request id for logs and the audit trail; default: a new UUID. */
  requestId?: string;
}

/** What one governed call answered: the MCP tool result, with its parts named. */
export interface EmbeddedToolResult {
  /** The call was refused or failed; `meta` says why in machine terms. */
  isError: boolean;
  /** The projected answer (success) or the refusal's fields (`isError`). */
  structured?: Record<string, unknown>;
  /** What a model is shown as the tool's result: the result's text blocks (a withheld-values note included). */
  text: string;
  /** The governance notes (`dev.wildo/...`): withheld values, refusal reasons, declared failures. */
  meta: Record<string, unknown>;
  /** The result exactly as MCP `tools/call` answers it. */
  mcp: McpToolResult;
}

/** A call the engine cannot run at all: an unknown tool, input that is no object, a tool needing an MCP client. */
export class EmbeddedCallError extends Error {
  override readonly name = 'EmbeddedCallError';
  constructor(
    readonly code: 'unknown_tool' | 'not_callable' | 'input_not_object',
    message: string,
  ) {
    super(message);
  }
}

/** The application's governed capabilities, in process: tool definitions for a model, and calls to them. */
export interface EmbeddedWildo {
  /** The tools offered (listed ones of the catalogue), with their MCP and vendor names. */
  readonly tools: readonly EmbeddedTool[];
  /** The tools in a vendor's own request format (`anthropic`, `openai-chat`, `openai-responses`, `gemini`). */
  toolDefinitions<F extends VendorFormat>(format: F): VendorToolDefinitions[F];
  /** Calls a tool by its MCP or vendor name through the dispatch path MCP uses: same policies, projection, audit. */
  execute(name: string, input: unknown, options: ExecuteOptions): Promise<EmbeddedToolResult>;
  /** Verifies an `Authorization` value (a token or an API key) as the backend does, for {@link ExecuteOptions.principal}. */
  authenticate(authorization: string): Promise<AuthenticatedPrincipal>;
  /** Releases what the engine opened (database, workers) when it created them itself. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Loads the application's declarations with no server (nothing listens): validated as at start, with the database
 * and connectors they need; calls go through the same dispatch path, policies, projection and audit as MCP.
 *
 * @example
 * await using wildo = await createEmbeddedWildo({ application, instance: 'travel-desk' });
 * const tools = wildo.toolDefinitions('anthropic');
 * const result = await wildo.execute(toolUse.name, toolUse.input, { principal });
 */
export async function createEmbeddedWildo(options: EmbeddedWildoOptions): Promise<EmbeddedWildo> {
  const { instance, ...backendOptions } = options;
  const backend = await createWildoBackend(backendOptions);
  try {
    return embedBackend(backend, { ...(instance !== undefined ? { instance } : {}), owned: true });
  } catch (error) {
    await backend.close();
    throw error;
  }
}

/**
 * Embeds an already built backend (one that may also serve HTTP): the same container, the same dispatch path. With
 * `owned`, `close()` closes the backend too.
 */
export function embedBackend(
  backend: WildoBackend,
  options: { instance?: string; owned?: boolean } = {},
): EmbeddedWildo {
  const { container } = backend;
  const catalogue = container.get<McpToolCatalogue>(SAAS_SERVICE_TYPES.McpToolCatalogue);
  const entries = catalogue.catalogue(options.instance);
  if (!entries)
    throw new Error(`No MCP instance "${options.instance}" is declared; name one of the application's MCP instances.`);
  const calls = new McpToolCallService(
    catalogue,
    container.get<OperationDispatcher>(SAAS_SERVICE_TYPES.OperationDispatcher),
    container.get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory),
    container.get<Logger>(SAAS_SERVICE_TYPES.Logger),
  );
  const tools = embeddedToolsOf([...entries.values()].filter((e) => e.listed).map((e) => e.descriptor));
  const byVendorName = new Map(tools.map((tool) => [tool.vendorName, tool.name]));
  const close = () => (options.owned ? backend.close() : Promise.resolve());
  return {
    tools,
    toolDefinitions: (format) => toolDefinitions(tools, format),
    async execute(name, input, { principal, requestId }) {
      // Vendor names map back; an MCP name (unlisted experimental tools included) is used as it is.
      const mcpName = entries.has(name) ? name : byVendorName.get(name);
      if (mcpName === undefined) throw new EmbeddedCallError('unknown_tool', 'Unknown tool.');
      const args = argumentsOf(input);
      try {
        const result = await calls.call({
          instance: options.instance,
          principal,
          name: mcpName,
          arguments: args,
          requestId: requestId ?? randomUUID(),
        });
        return embeddedResult(result);
      } catch (error) {
        if (error instanceof JsonRpcWireError) throw new EmbeddedCallError('not_callable', error.message);
        throw error;
      }
    },
    async authenticate(authorization) {
      const principal = await container
        .get<Authenticator>(SAAS_SERVICE_TYPES.Authenticator)
        .authenticate(authorization);
      if (!principal) throw new EmbeddedCallError('not_callable', 'No credential was given.');
      return principal;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A model's tool input: an object, or a JSON text of one (as OpenAI sends arguments); nothing is no arguments. */
function argumentsOf(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new EmbeddedCallError('input_not_object', 'The tool input is not JSON.');
    }
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new EmbeddedCallError('input_not_object', 'The tool input must be a JSON object.');
  return value as Record<string, unknown>;
}

function embeddedResult(result: McpToolResult): EmbeddedToolResult {
  return {
    isError: result.isError === true,
    ...(result.structuredContent ? { structured: result.structuredContent } : {}),
    text: result.content
      .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
      .map((block) => block.text)
      .join('\n\n'),
    meta: result._meta ?? {},
    mcp: result,
  };
}

/**
 * A principal for an application that authenticates its callers itself: a machine acting in one organization with
 * the given organization roles (the policies and roles of each operation still decide).
 *
 * @example
 * const principal = embeddedPrincipal({ clientId: 'support-bot', organizationId, roles: ['ORG_MEMBER'] });
 */
export function embeddedPrincipal(options: {
  clientId: string;
  organizationId: string;
  roles: readonly string[];
}): MachinePrincipal {
  return {
    kind: 'machine',
    executionType: ExecutionContext_ExecutionType.ORGANIZATION_MACHINE,
    clientId: options.clientId,
    organizationId: options.organizationId,
    roles: [...options.roles],
    credential: { type: 'client_token', id: options.clientId },
  };
}
