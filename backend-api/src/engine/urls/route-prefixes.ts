/**
 * Where the engine's routes live, in one place for the routers that serve them and the rooms that write their URLs
 * (token audiences, discovery documents, upload grants, the exposure report).
 */

/** Where the REST API is mounted: every path below is relative to it. */
export const API_PREFIX = '/api/v1';

/** The default MCP endpoint (`/mcp`); a named instance answers at `/mcp/<ref>`. */
export const MCP_PATH = '/mcp';

/** The default A2A endpoint (`/a2a`); a named instance answers at `/a2a/<ref>`. */
export const A2A_PATH = '/a2a';

/** The health check. */
export const HEALTH_PATH = '/health';

/** The OAuth token endpoint. */
export const OAUTH_TOKEN_PATH = '/oauth/token';

/** Dynamic client registration. */
export const OAUTH_REGISTRATION_PATH = '/oauth/register';

/** The path below the API of a resource server endpoint: the default one (`ref` omitted) or a named instance. */
export function instancePath(defaultPath: typeof MCP_PATH | typeof A2A_PATH, ref?: string): string {
  return ref === undefined || ref === '' ? defaultPath : `${defaultPath}/${ref}`;
}
