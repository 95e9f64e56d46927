/** The engine's version, reported by the health endpoint, the MCP handshake and the A2A cards. */
export const ENGINE_VERSION = '0.1.0';
