import { JSON_RPC_ERROR_CODES } from '../errors/index.js';

/** Protocol revisions this server speaks, newest first (guide: `MCP_SUPPORTED_PROTOCOL_VERSIONS`). */
export const MCP_SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  '2026-07-28',
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
];

/** The stateless revisions (per-request metadata, no handshake). */
export const STATELESS_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];
/** The handshake-era revisions (initialize, then `MCP-Protocol-Version` on later requests). */
export const HANDSHAKE_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
/** The revision assumed for a handshake-era request that carries no version header (the spec's rule). */
export const HANDSHAKE_DEFAULT_VERSION = '2025-03-26';

/** `_meta` keys of the stateless revision. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** JSON-RPC and MCP error codes used by this server: the framework's own (see `errors`) and MCP's transport codes. */
export const RPC_ERRORS = {
  ...JSON_RPC_ERROR_CODES,
  HEADER_MISMATCH: -32020,
  MISSING_CLIENT_CAPABILITY: -32021,
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const;

/** The `_meta` namespace of this framework's governed results. */
export const GOVERNANCE_META = {
  POLICY_DENIED: 'dev.wildo/policy_denied',
  INPUT_INVALID: 'dev.wildo/input_invalid',
  LIFECYCLE_BLOCKED: 'dev.wildo/lifecycle_blocked',
  TOOL_ERROR: 'dev.wildo/tool_error',
  PROJECTION: 'dev.wildo/projection',
  CONTRACT_VIOLATION: 'dev.wildo/contract_violation',
  OPERATION_FAILED: 'dev.wildo/operation_failed',
} as const;
