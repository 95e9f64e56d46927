// Resource servers (MCP, A2A): their endpoints and audiences, the authenticator of their callers, RFC 9728 metadata.
export {
  DELEGATED_TOKEN_RESOURCE_SERVERS,
  type ResourceServerEndpoint,
  ResourceServerInstancesRegistryBackendService,
} from './resource-server-instances.registry.js';
export { ResourceServerAuthenticator } from './resource-server.authenticator.js';
export { createProtectedResourceMetadataRouter } from './protected-resource.routes.js';
