import { ResourceServerKind, type ResourceServerInstance } from '@wildo/shared-lib';
import { A2A_PATH, API_PREFIX, instancePath, MCP_PATH } from '../urls/index.js';

/** Resource servers whose audiences a person may delegate to a client (authorization code grant). */
export const DELEGATED_TOKEN_RESOURCE_SERVERS: readonly ResourceServerKind[] = [
  ResourceServerKind.MCP,
  ResourceServerKind.A2A,
];

const PATHS = { [ResourceServerKind.MCP]: MCP_PATH, [ResourceServerKind.A2A]: A2A_PATH } as const;

/** One addressable resource server endpoint and the token audience that names it. */
export interface ResourceServerEndpoint {
  kind: ResourceServerKind;
  /** `undefined` for the default endpoint of its kind. */
  ref?: string;
  audience: string;
}

/**
 * The application's resource server endpoints (the default `/api/v1/mcp` and `/api/v1/a2a`, plus each named
 * instance) and their audiences. A token's audience is the exact endpoint URL, instance included.
 */
export class ResourceServerInstancesRegistryBackendService {
  private readonly endpoints: ResourceServerEndpoint[];

  constructor(
    private readonly issuer: string,
    readonly instances: readonly ResourceServerInstance[],
  ) {
    const base = issuer.replace(/\/+$/, '');
    this.endpoints = [
      ...Object.values(ResourceServerKind).map((kind) => ({ kind, audience: `${base}${API_PREFIX}${PATHS[kind]}` })),
      ...instances.map((i) => ({
        kind: i.kind,
        ref: i.ref,
        audience: `${base}${API_PREFIX}${instancePath(PATHS[i.kind], i.ref)}`,
      })),
    ];
  }

  /** The audience of an endpoint (`ref` omitted: the default endpoint of that kind). */
  audienceOf(kind: ResourceServerKind, ref?: string): string {
    const endpoint = this.endpoints.find((e) => e.kind === kind && e.ref === ref);
    if (!endpoint) throw new Error(`No ${kind} resource server "${ref}".`);
    return endpoint.audience;
  }

  /** Every audience of the given kinds. */
  listResourceServerAudiences(kinds: readonly ResourceServerKind[]): string[] {
    return this.endpoints.filter((e) => kinds.includes(e.kind)).map((e) => e.audience);
  }

  /** The endpoint an audience names, if any. */
  endpointFor(audience: string): ResourceServerEndpoint | undefined {
    return this.endpoints.find((e) => e.audience === audience);
  }
}
