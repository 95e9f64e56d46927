import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Logger } from '../../logging/index.js';
import type { ExternalMcpCallResult, ExternalMcpServerDefinition, ExternalMcpTool } from './external-mcp.types.js';

const DEFAULT_TIMEOUT_MS = 10_000;
/** Discovery reads at most this many pages of `tools/list` (a server cannot flood the model's tool list). */
const MAX_LIST_PAGES = 10;
/** And keeps at most this many tools per server. */
const MAX_TOOLS_PER_SERVER = 64;

/** A connection to one external server for the length of one turn. */
export interface ExternalMcpSession {
  readonly serverRef: string;
  readonly tools: readonly ExternalMcpTool[];
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ExternalMcpCallResult>;
  close(): Promise<void>;
}

/**
 * Connects to the external MCP servers an agent names (official SDK client over Streamable HTTP) and discovers
 * their tools at turn start. A server that cannot be reached or listed contributes no tools; the reason is
 * logged and the turn goes on with what is available.
 */
export class ExternalMcpConnector {
  private readonly servers: ReadonlyMap<string, ExternalMcpServerDefinition>;

  constructor(
    servers: readonly ExternalMcpServerDefinition[],
    private readonly logger: Logger,
  ) {
    this.servers = new Map(servers.map((server) => [server.ref, server]));
  }

  /** Whether a server of this ref is configured (registration checks agents' `mcpRefs` with it). */
  has(ref: string): boolean {
    return this.servers.has(ref);
  }

  /** Whether every call to this server's tools is gated behind a person's decision. */
  requiresApproval(ref: string): boolean {
    return this.servers.get(ref)?.requiresHumanApproval === true;
  }

  /** Opens a session per named server; unavailable servers are logged and left out. */
  async open(refs: readonly string[], signal?: AbortSignal): Promise<ExternalMcpSession[]> {
    const sessions = await Promise.all(refs.map((ref) => this.connect(ref, signal)));
    return sessions.filter((session): session is ExternalMcpSession => session !== undefined);
  }

  private async connect(ref: string, signal?: AbortSignal): Promise<ExternalMcpSession | undefined> {
    const server = this.servers.get(ref);
    if (!server) {
      this.logger.warn('external MCP server is not configured; it contributes no tools', { mcpRef: ref });
      return undefined;
    }
    const timeout = server.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // One deadline for the whole discovery (connect and every page), and the turn's own cancellation.
    const discovery = signal ? AbortSignal.any([AbortSignal.timeout(timeout), signal]) : AbortSignal.timeout(timeout);
    const client = new Client({ name: 'wildo-agents', version: '1.0.0' });
    let transport: StreamableHTTPClientTransport | undefined;
    try {
      const headers = (await server.headers?.()) ?? {};
      transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
      await client.connect(transport, { timeout, signal: discovery });
      const tools: ExternalMcpTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES && tools.length < MAX_TOOLS_PER_SERVER; page++) {
        const listed = await client.listTools(cursor ? { cursor } : {}, { timeout, signal: discovery });
        for (const tool of listed.tools) {
          tools.push({
            serverRef: ref,
            name: tool.name,
            description: tool.description ?? tool.title ?? tool.name,
            inputSchema: tool.inputSchema as Record<string, unknown>,
          });
        }
        cursor = listed.nextCursor;
        if (!cursor) break;
      }
      const open = transport;
      return {
        serverRef: ref,
        tools: tools.slice(0, MAX_TOOLS_PER_SERVER),
        async call(name, args, callSignal) {
          const result = await client.callTool({ name, arguments: args }, undefined, {
            timeout,
            ...(callSignal ? { signal: callSignal } : {}),
          });
          return { isError: result.isError === true, content: result.structuredContent ?? result.content };
        },
        close: () => endSession(client, open, timeout),
      };
    } catch (error) {
      // A turn the browser abandoned is not the server's fault: only real failures are reported.
      if (!signal?.aborted) {
        this.logger.warn('external MCP server is unavailable; it contributes no tools to this turn', {
          mcpRef: ref,
          error: describe(error),
        });
      }
      await client.close().catch(() => undefined);
      return undefined;
    }
  }
}

/** Ends the server's session (HTTP DELETE, as the transport specifies), bounded in time, then closes the client. */
async function endSession(client: Client, transport: StreamableHTTPClientTransport, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.min(timeoutMs, 2_000));
    timer.unref();
  });
  await Promise.race([transport.terminateSession().catch(() => undefined), deadline]);
  clearTimeout(timer);
  await client.close().catch(() => undefined);
}

/** An error for the log: its message, cut short (a server's response body may be echoed in it). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}
