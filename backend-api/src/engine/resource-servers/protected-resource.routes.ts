import { OIDC_SUPPORTED_IDENTITY_SCOPES } from '@wildo/shared-lib';
import { Router } from 'express';
import {
  DELEGATED_TOKEN_RESOURCE_SERVERS,
  type ResourceServerInstancesRegistryBackendService,
} from './resource-server-instances.registry.js';

/**
 * RFC 9728 protected resource metadata for every MCP/A2A endpoint, at
 * `/.well-known/oauth-protected-resource<endpoint path>`: which authorization server issues its tokens.
 */
export function createProtectedResourceMetadataRouter(
  resourceServers: ResourceServerInstancesRegistryBackendService,
  issuer: string,
): Router {
  const router = Router();
  for (const audience of resourceServers.listResourceServerAudiences(DELEGATED_TOKEN_RESOURCE_SERVERS)) {
    const metadata = {
      resource: audience,
      authorization_servers: [issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: [...OIDC_SUPPORTED_IDENTITY_SCOPES],
      resource_name: new URL(audience).pathname,
    };
    router.get(`/.well-known/oauth-protected-resource${new URL(audience).pathname}`, (_req, res) => {
      res.setHeader('cache-control', 'public, max-age=300');
      res.json(metadata);
    });
  }
  return router;
}
