/**
 * Exchange protocols spoken between the engine and an external provider. `providerConfigurations`
 * is keyed by these values. AUDIO_PROVIDER and VIDEO_PROVIDER are reserved names: no provider serves
 * them and no backend protocol arm runs them yet.
 */
export enum ExternalProvider_ExchangeProtocol_Kind {
  LLM_PROVIDER = 'llm_provider',
  EMBEDDINGS_PROVIDER = 'embeddings_provider',
  IMAGE_PROVIDER = 'image_provider',
  AGENT_CLIENT_PROTOCOL = 'agent_client_protocol',
  AUDIO_PROVIDER = 'audio_provider',
  VIDEO_PROVIDER = 'video_provider',
}

/** Exchange protocols that are named but not executable; declaring them for a provider is refused. */
export const RESERVED_EXCHANGE_PROTOCOL_KINDS: readonly ExternalProvider_ExchangeProtocol_Kind[] = [
  ExternalProvider_ExchangeProtocol_Kind.AUDIO_PROVIDER,
  ExternalProvider_ExchangeProtocol_Kind.VIDEO_PROVIDER,
];

/** Where an Agent Client Protocol runner process lives. */
export enum AgentClientProtocol_RunnerHost {
  BACKEND_SUBPROCESS = 'BACKEND_SUBPROCESS',
}

/** How the coding-agent subprocess authenticates to its vendor. */
export enum AgentClientProtocol_AuthMode {
  /** The operator's existing agent login on the host is used as is. */
  HOST_MANAGED = 'HOST_MANAGED',
  /** The provider's credential environment variable is handed to the subprocess. */
  API_KEY = 'API_KEY',
}

/** Which directory the subprocess starts in. */
export enum AgentClientProtocol_WorkingDirectoryPolicy {
  WORKSPACE_ROOT = 'WORKSPACE_ROOT',
}

/** The widest tool-permission category the runner will grant when the agent asks. Not a sandbox. */
export enum AgentClientProtocol_PermissionCeiling {
  READ_ONLY = 'READ_ONLY',
  WORKSPACE_WRITE = 'WORKSPACE_WRITE',
  UNRESTRICTED = 'UNRESTRICTED',
}

/** Whether the subprocess inherits the host's own agent configuration (settings, MCP servers, ...). */
export enum AgentClientProtocol_HostConfigurationInheritance {
  NONE = 'NONE',
  APPLICATION_SCOPED = 'APPLICATION_SCOPED',
}
