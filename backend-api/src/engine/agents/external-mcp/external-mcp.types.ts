/** An external MCP server an agent may name in `capabilities.tools.mcpRefs`, configured by the application. */
export interface ExternalMcpServerDefinition {
  /** The name agents use in `mcpRefs`. */
  ref: string;
  /** Streamable HTTP endpoint. Configured by the application, not by users; it is reached as is. */
  url: string;
  /** Headers of every request (a credential for the server, typically read from the environment). */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** Bound on the whole discovery (connect and listing) and on each call (default 10 s). */
  timeoutMs?: number;
  /** Pause every call to this server's tools for a person's decision. */
  requiresHumanApproval?: boolean;
}

/** A tool discovered on an external server at turn start. */
export interface ExternalMcpTool {
  serverRef: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The outcome of a call to an external tool, as the model will read it. */
export interface ExternalMcpCallResult {
  isError: boolean;
  content: unknown;
}
