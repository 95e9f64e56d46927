import type { AuthenticatedPrincipal } from '../identity/index.js';

/** A content block of a tool result. */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };

/** A `tools/call` result. */
export interface McpToolResult {
  content: McpContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** Tool hints for clients (MCP annotations). */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as `tools/list` shows it. */
export interface McpToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: McpToolAnnotations;
}

/** What a custom tool receives besides its arguments. */
export interface McpCustomToolContext {
  principal: AuthenticatedPrincipal;
  requestId: string;
  /** The named instance addressed, or undefined for the default catalogue. */
  instance?: string;
  clientCapabilities?: unknown;
  /** Reports progress when the client asked for it (streamed as SSE notifications). */
  progress?: (progress: number, total?: number) => Promise<void>;
  /** Sends a log message to the client (`notifications/message`; handshake revisions, when the answer streams). */
  log?: (level: 'debug' | 'info' | 'notice' | 'warning' | 'error', data: unknown) => void;
  /** Asks the client's person for input (`elicitation/create`), when the client declared elicitation. */
  elicit?: (params: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** Asks the client's model for a completion (`sampling/createMessage`), when the client declared sampling. */
  createMessage?: (params: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

/**
 * A tool a module contributes directly (not derived from a resource operation). It must run admission itself
 * for anything it reaches; resource-backed tools go through the dispatcher.
 */
export interface McpCustomTool {
  descriptor: McpToolDescriptor;
  /** Named instances serving it exclusively; omitted = the default catalogue. */
  servers?: readonly string[];
  call(args: Record<string, unknown>, context: McpCustomToolContext): Promise<McpToolResult>;
}

/** Thrown by a tool that needs a client capability the caller did not declare (answered as -32021). */
export class McpClientCapabilityRequired extends Error {
  override readonly name = 'McpClientCapabilityRequired';
  constructor(readonly capability: string) {
    super(`Missing required client capability: ${capability}`);
  }
}
