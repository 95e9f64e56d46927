/** The two kinds of resource servers an application can publish besides its REST API. */
export enum ResourceServerKind {
  MCP = 'MCP',
  A2A = 'A2A',
}

/** A named, separately addressed MCP tool server or A2A agent (`/api/v1/mcp/:ref`, ...). */
export interface ResourceServerInstance {
  ref: string;
  kind: ResourceServerKind;
  displayName: string;
  description?: string;
  /** A2A only: the actor systems exposed as skills on this agent card. */
  actorSystemRefs?: string[];
}
