// Route prefixes: where the engine's routes live, for the routers and for every room that writes a URL.
export {
  A2A_PATH,
  API_PREFIX,
  HEALTH_PATH,
  instancePath,
  MCP_PATH,
  OAUTH_REGISTRATION_PATH,
  OAUTH_TOKEN_PATH,
} from './route-prefixes.js';
