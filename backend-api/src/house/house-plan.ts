/**
 * The house plan of the engine (`backend-api/src/engine`): its rooms (capability folders), floor by floor from the
 * ground up. A room imports only rooms on floors below its own, and only through their `index.ts`; rooms on one
 * floor do not import one another. A folder nested in a room is a room of its own when the plan names it
 * (`agents/runtime`), and part of its parent otherwise (`rag/chunking`). `house-rules.test.ts` holds the tree to it.
 */
export interface HouseFloor {
  name: string;
  /** Room (folder below `engine/`) → what it holds, in a line. */
  rooms: Readonly<Record<string, string>>;
}

/** Narrower rules than the floors give, for rooms that must know less than their floor allows. */
export interface RoomLimit {
  room: string;
  /** When set, the only rooms it may import (still only downward). */
  only?: readonly string[];
  /** Rooms it never imports, wherever they are. */
  never?: readonly string[];
  /** Why, in the words of the rule it keeps. */
  because: string;
}

export const HOUSE_FLOORS: readonly HouseFloor[] = [
  {
    name: 'foundation',
    rooms: {
      errors: 'FrameworkError, its closed code list, the code → HTTP and code → JSON-RPC tables',
      logging: 'the structured logger',
      config: 'the runtime configuration and its generation, the engine version',
      net: 'the outbound-target guard for addresses users supply',
      urls: 'route prefixes (API_PREFIX, the MCP and A2A paths): one place for every room that writes a URL',
    },
  },
  {
    name: 'infrastructure',
    rooms: {
      persistence: 'the SQL adapter (PGlite, PostgreSQL), the resource store contract and its SQL store',
      coordination: 'counters, pub/sub and leases (in-process or Redis)',
      'public-urls': "the backend's public URLs, resolved once: every absolute URL it writes comes from them",
    },
  },
  {
    name: 'container',
    rooms: { container: 'the injection tokens (SAAS_SERVICE_TYPES), the clock, what every module gives the container' },
  },
  {
    name: 'platform services',
    rooms: {
      observability: 'trace sinks (logger, PostHog, OpenTelemetry)',
      jobs: 'the job queue (pg-boss on the application database)',
      mail: 'the mail sender (SMTP, or the outbox a development backend keeps) and the outbox route',
      'resources/schema': 'reading Zod schemas: strict input, input problems, storable text',
    },
  },
  {
    name: 'identity',
    rooms: { identity: 'principals, users, organizations, tokens and their revocation, roles, step-up' },
  },
  {
    name: 'policy',
    rooms: {
      governance: 'policies, lifecycle, refusal vocabulary, projection, audit trail',
      routing: 'what every router shares: the exchange state, parameters, the success and error envelopes',
      'oauth/cimd': 'client ID metadata documents: fetching, validating and trusting them',
      jsonrpc: 'JSON-RPC 2.0 envelopes, parsing one message, method tables by own name: shared by MCP and A2A',
    },
  },
  {
    name: 'dispatch',
    rooms: { resources: 'the resource registry and the one dispatch path every surface goes through' },
  },
  {
    name: 'capabilities',
    rooms: {
      credentials: 'API keys, OAuth clients, secret rotation',
      'identity/routes': 'the REST routes of accounts: sign-up, log-in, organizations, members, invitations',
      'agents/providers': 'LLM provider adapters and the model catalogue',
      'agents/budgets': 'token budgets: plans, overrides, usage, admission',
      'agents/approvals': 'human approval of gated tool calls',
      approvals:
        "approval of operation calls on every surface: the dispatch path's approval step, its store and routes",
      audit:
        'the tamper-evident audit trail of every dispatched call: entries, sealing, the chain check, the query route',
      'agents/external-mcp': 'tools of external MCP servers offered to agents',
    },
  },
  {
    name: 'served capabilities',
    rooms: {
      'resource-servers': 'the MCP and A2A endpoints of the application and their authenticator',
      files: 'file storage, upload grants, upload routes',
      'agents/tools': 'function tools, the caller they dispatch through, the tool set a turn offers a model',
    },
  },
  {
    name: 'declarations',
    rooms: {
      oauth: 'the authorization server: discovery, consent, tokens, registration',
      'agents/systems': 'agents and actor systems: their declarations, registry and who may talk to them',
      rag: 'extraction, chunking, ingestion, embeddings, retrieval',
      connectors: 'REST and SQL bindings of capabilities backed by an external system',
    },
  },
  {
    name: 'runtimes',
    rooms: { 'agents/runtime': 'conversations, turns and invocation (AgentsBackendService)' },
  },
  {
    name: 'agents',
    rooms: {
      'agents/coding': 'coding agents over ACP',
      agents: "the agents' module and routes, over their rooms",
    },
  },
  {
    name: 'agent surface',
    rooms: { a2a: 'the A2A resource server: cards, tasks, push' },
  },
  {
    name: 'tool surface',
    rooms: { mcp: 'the MCP resource server: catalogue, tool calls, upload-grant tools, exposure report' },
  },
  {
    name: 'http',
    rooms: { http: 'the Express application: middleware, resource routes, every router mounted' },
  },
  {
    name: 'bootstrap',
    rooms: { bootstrap: 'createWildoBackend: the container, the engine modules, start-up validation' },
  },
  {
    name: 'outside uses',
    rooms: {
      embedded: 'the same declarations without a server: vendor tool formats, execute(), the extractor',
      toolchain: 'what the CLI reads declarations with: diff, doctor, contracts (verify, adopt), OpenAPI candidates',
    },
  },
];

export const ROOM_LIMITS: readonly RoomLimit[] = [
  {
    room: 'persistence',
    only: ['errors', 'logging', 'config'],
    because: 'persistence knows no feature',
  },
  {
    room: 'resources',
    never: ['http', 'mcp', 'a2a', 'agents/tools', 'routing', 'identity/routes'],
    because: 'the dispatch path imports no surface',
  },
  ...['http', 'mcp', 'agents/tools', 'identity/routes', 'routing'].map((room): RoomLimit => ({
    room,
    never: ['persistence'],
    because: "a surface reaches data only through the dispatch path or a capability's own store",
  })),
];

/** The plan as the checker reads it. */
export interface HousePlan {
  roomNames: readonly string[];
  floorOf(room: string): number;
  /** Why `room` may not import `target`, or undefined when it may. */
  refusal(room: string, target: string): string | undefined;
}

/** The entry (`engine/index.ts`) stands above every floor: it exports the public names of every room. */
export function housePlan(floors: readonly HouseFloor[] = HOUSE_FLOORS, limits = ROOM_LIMITS): HousePlan {
  const floorOf = new Map<string, number>();
  floors.forEach((floor, index) => {
    for (const room of Object.keys(floor.rooms)) floorOf.set(room, index);
  });
  const describe = (room: string) =>
    room === '(entry)'
      ? 'the entry'
      : `"${room}" (floor ${floorOf.get(room)}, ${floors[floorOf.get(room) ?? 0]?.name})`;
  const levelOf = (room: string) => (room === '(entry)' ? floors.length : (floorOf.get(room) ?? floors.length));
  return {
    roomNames: [...floorOf.keys()],
    floorOf: levelOf,
    refusal(room, target) {
      const limit = limits.find((l) => l.room === room);
      if (limit?.never?.includes(target) || (limit?.only && !limit.only.includes(target)))
        return `${describe(room)} imports ${describe(target)}: ${limit.because}`;
      if (levelOf(target) < levelOf(room)) return undefined;
      const way = levelOf(target) === levelOf(room) ? 'a room on its own floor' : 'a room above it';
      return `${describe(room)} imports ${way}, ${describe(target)}: rooms import downward; move what both need below them`;
    },
  };
}
