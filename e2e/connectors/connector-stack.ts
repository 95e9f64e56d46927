import {
  createLogger,
  createSilentLogger,
  createWildoBackend,
  type BackendApplicationDefinition,
  type WildoBackend,
} from '@wildo/backend-api';
import { createPgliteDatabase } from '@wildo/backend-api/persistence';
import {
  AnthropicStub,
  modelToolName,
  postTurn,
  textReply,
  toolCallsReply,
  type TurnEvent,
} from '@wildo/backend-api/testing';
import { freePort } from '@wildo/backend-api/testing/backend-process';
import { pgliteTemplateDump } from '@wildo/backend-api/testing/pglite-template';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { referenceRuntimeOptions } from '../reference-runtime.js';
import { createHttpClient, type HttpClient, type HttpResult } from '../support/http-client.js';
import { addMember, createOrganization, signUp, type OrgRole, type ScenarioUser } from '../support/fixtures.js';
import {
  createOrganizationApiKey,
  createPublicOAuthClient,
  delegatedToken,
  protectedResourceOf,
  type McpCredential,
} from '../support/mcp-credentials.js';
import { callTool, type McpExchange } from '../support/mcp-client.js';
import { startSyntheticAgency, type SyntheticAgency } from '../synthetic-agency/agency-api.js';

const DEFAULT_MCP = '/api/v1/mcp';
/** The reference application serves the travel desk's tools on their own MCP endpoint. */
const TRAVEL_DESK_MCP = '/api/v1/mcp/travel-desk';
const MCP_PATHS = [DEFAULT_MCP, TRAVEL_DESK_MCP];
const TRAVEL_DESK_TOOLS = new Set(['hotels', 'agency-reports']);

/** A fixed primary secret for the connector tests only. */
const CONNECTOR_TEST_SECRET = 'e2e-connectors-secret-0123456789-abcdefghijk';

/** The three surfaces every governed operation is reached through. */
export type Surface = 'rest' | 'mcp' | 'agent';
export const SURFACES: readonly Surface[] = ['rest', 'mcp', 'agent'];

/** What one call came back with, whatever the surface: the shown data or the refusal, and every text a model reads. */
export interface CallOutcome {
  surface: Surface;
  ok: boolean;
  data?: unknown;
  /** Withheld values `{ path, reason }` (REST envelope, MCP `_meta`, the tool result). */
  withheld: readonly { path: string; reason: string }[];
  code?: string;
  reason?: string;
  failure?: { code: string; description: string };
  violation?: { missing?: unknown[]; invalid?: { field: string; expected: string }[] };
  /** Every text a client or model receives (MCP text blocks, messages), for the leak checks. */
  texts: string[];
  /** The whole answer as received (for the leak checks). */
  raw: unknown;
}

/** A caller of one organization: the person, and the MCP credentials that act as them. */
export interface StackMember {
  user: ScenarioUser;
  /** Delegated tokens issued to an OAuth client of the organization, one per MCP endpoint (by its path). */
  delegated: ReadonlyMap<string, McpCredential>;
}

/** The reference application (or another) against the synthetic agency, with the people and keys the tests need. */
export interface ConnectorStack {
  agency: SyntheticAgency;
  backend: WildoBackend;
  url: string;
  client: HttpClient;
  stub: AnthropicStub;
  organizationId: string;
  owner: StackMember;
  /** A member whose role is `role` (created on demand, once per role). */
  member(role: OrgRole): Promise<StackMember>;
  /** An organization API key (a machine caller). */
  apiKey: McpCredential;
  /** The MCP endpoint that serves a resource's tools (the travel desk's own server, or the default one). */
  mcpPathOf(resourceType: string): string;
  /** `who`'s delegated token for the endpoint that serves `resourceType`. */
  credential(who: StackMember, resourceType: string): McpCredential;
  /** Calls an operation of `resourceType` through one surface as `who` (default: the owner). */
  call(
    surface: Surface,
    resourceType: string,
    operation: string,
    input: Record<string, unknown>,
    who?: StackMember,
  ): Promise<CallOutcome>;
  /** Every outcome seen so far (for the leak checks of a whole file). */
  readonly outcomes: CallOutcome[];
  close(): Promise<void>;
}

/** Options of {@link startConnectorStack}. */
export interface ConnectorStackOptions {
  /** The application (default: the reference application); receives the agency's URL. */
  application?: (agency: SyntheticAgency) => BackendApplicationDefinition;
  /** Environment of the backend beside `TRAVEL_AGENCY_API_URL` and `SHOWCASE_API_URL` (both the agency). */
  env?: Record<string, string>;
  /** The actor system whose turns reach the agent tools (default `travel-desk`). */
  actorSystem?: string;
  /** Receives the backend's log lines (default: none). */
  logLines?: string[];
}

function restOutcome(res: HttpResult): CallOutcome {
  const body = (res.body ?? {}) as {
    data?: unknown;
    withheld?: CallOutcome['withheld'];
    error?: Record<string, unknown>;
  };
  if (res.status === 200)
    return {
      surface: 'rest',
      ok: true,
      data: body.data,
      withheld: body.withheld ?? [],
      texts: [res.text],
      raw: res.body,
    };
  return refusedOutcome('rest', body.error ?? {}, [], res.body);
}

/** A refusal as REST's envelope and an agent's tool outcome carry it (the same client fields). */
function refusedOutcome(
  surface: Surface,
  error: Record<string, unknown>,
  moreTexts: readonly string[],
  raw: unknown,
): CallOutcome {
  return {
    surface,
    ok: false,
    withheld: [],
    code: error.code as string,
    ...(error.reason ? { reason: error.reason as string } : {}),
    ...(error.failure ? { failure: error.failure as CallOutcome['failure'] } : {}),
    ...(error.violation ? { violation: error.violation as CallOutcome['violation'] } : {}),
    texts: [typeof error.message === 'string' ? error.message : '', ...moreTexts],
    raw,
  };
}

function mcpOutcome(exchange: McpExchange): CallOutcome {
  const result = exchange.result ?? {};
  const texts = ((result.content ?? []) as { type?: string; text?: string }[]).flatMap((block) =>
    block.type === 'text' && block.text ? [block.text] : [],
  );
  if (exchange.error)
    return {
      surface: 'mcp',
      ok: false,
      withheld: [],
      code: 'RPC',
      texts: [exchange.error.message],
      raw: exchange.error,
    };
  const meta = (result._meta ?? {}) as Record<string, Record<string, unknown>>;
  const governance = Object.entries(meta).find(([key]) => key.startsWith('dev.wildo/'))?.[1] ?? {};
  if (result.isError !== true) {
    const withheld = (governance.withheld ?? []) as CallOutcome['withheld'];
    return { surface: 'mcp', ok: true, data: result.structuredContent, withheld, texts, raw: result };
  }
  return {
    surface: 'mcp',
    ok: false,
    withheld: [],
    code: typeof governance.error === 'string' ? governance.error : '',
    ...(governance.reason ? { reason: governance.reason as string } : {}),
    ...(typeof governance.failure === 'string'
      ? { failure: { code: governance.failure, description: String(governance.description) } }
      : {}),
    ...(governance.error === 'contract_violation'
      ? {
          violation: {
            missing: governance.missing as unknown[],
            invalid: governance.invalid as { field: string; expected: string }[],
          },
        }
      : {}),
    texts,
    raw: result,
  };
}

function agentOutcome(events: readonly TurnEvent[], failure: unknown): CallOutcome {
  const result = events.find(
    (event): event is Extract<TurnEvent, { type: 'tool_result' }> => event.type === 'tool_result',
  );
  if (!result)
    return {
      surface: 'agent',
      ok: false,
      withheld: [],
      code: 'NO_TOOL_RESULT',
      texts: [JSON.stringify(failure ?? events)],
      raw: events,
    };
  const outcome = result.outcome as Record<string, unknown> & { ok: boolean };
  if (outcome.ok) {
    const shown = outcome as { result?: unknown; withheld?: CallOutcome['withheld'] };
    return {
      surface: 'agent',
      ok: true,
      data: shown.result,
      withheld: shown.withheld ?? [],
      texts: [JSON.stringify(outcome)],
      raw: outcome,
    };
  }
  return refusedOutcome('agent', (outcome.error ?? {}) as Record<string, unknown>, [JSON.stringify(outcome)], outcome);
}

/**
 * Starts the synthetic agency, a model stub and a backend (the reference application unless another is given) on a
 * free port that is also its public URL (delegated tokens name it), then signs up an owner with an organization,
 * an organization API key and the OAuth client whose delegated tokens the MCP calls use.
 */
export async function startConnectorStack(options: ConnectorStackOptions = {}): Promise<ConnectorStack> {
  const agency = await startSyntheticAgency();
  const stub = await new AnthropicStub().start();
  const database = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const reference = await referenceRuntimeOptions();
  const backend = await createWildoBackend({
    application: options.application?.(agency) ?? referenceApplication,
    database,
    logger: options.logLines
      ? createLogger({ level: 'warn', destination: { write: (line: string) => void options.logLines?.push(line) } })
      : createSilentLogger(),
    primarySecret: CONNECTOR_TEST_SECRET,
    publicUrl: url,
    ...reference,
    env: {
      ANTHROPIC_API_KEY: 'stub-key',
      ANTHROPIC_BASE_URL: stub.baseURL,
      TRAVEL_AGENCY_API_URL: agency.url,
      TRAVEL_AGENCY_API_KEY: 'desk-key-0001',
      SHOWCASE_API_URL: agency.url,
      ...options.env,
    },
    providers: { maxRetries: 0 },
  });
  await backend.listen(port, '127.0.0.1');
  const client = createHttpClient(url);
  const ownerUser = await signUp(client, 'connectors-owner');
  const organizationId = await createOrganization(client, ownerUser, 'Connector desk');
  const oauthClientId = await createPublicOAuthClient(client, ownerUser, organizationId);
  const audiences = new Map<string, string>();
  for (const path of MCP_PATHS) audiences.set(path, await protectedResourceOf(client, path));
  const memberOf = async (user: ScenarioUser): Promise<StackMember> => {
    const delegated = new Map<string, McpCredential>();
    for (const [path, audience] of audiences)
      delegated.set(path, await delegatedToken(client, user, oauthClientId, audience, `${user.email} at ${path}`));
    return { user, delegated };
  };
  const mcpPathOf = (resourceType: string) => (TRAVEL_DESK_TOOLS.has(resourceType) ? TRAVEL_DESK_MCP : DEFAULT_MCP);
  const credential = (who: StackMember, resourceType: string) =>
    who.delegated.get(mcpPathOf(resourceType)) as McpCredential;
  const owner = await memberOf(ownerUser);
  const apiKey = await createOrganizationApiKey(client, ownerUser, organizationId);
  const members = new Map<OrgRole, Promise<StackMember>>();
  const outcomes: CallOutcome[] = [];
  const turns = `${url}/api/v1/organizations/${organizationId}/flows-actors/systems/${options.actorSystem ?? 'travel-desk'}/turns`;
  let callNumber = 0;

  const call: ConnectorStack['call'] = async (surface, resourceType, operation, input, who = owner) => {
    let outcome: CallOutcome;
    if (surface === 'rest') {
      outcome = restOutcome(
        await client.post(`/api/v1/organizations/${organizationId}/${resourceType}/${operation}`, input, {
          token: who.user.token,
        }),
      );
    } else if (surface === 'mcp') {
      const args = { organizationId, ...input };
      outcome = mcpOutcome(
        await callTool(client, mcpPathOf(resourceType), `${resourceType}__${operation}`, args, {
          credential: credential(who, resourceType),
        }),
      );
    } else {
      callNumber += 1;
      const name = modelToolName(`resource.${resourceType}.${operation}`);
      stub.enqueue(toolCallsReply([{ id: `call-${callNumber}`, name, arguments: input }]), textReply('Done.'));
      const turn = await postTurn(turns, { token: who.user.token.reveal(), message: `Please run ${operation}.` });
      outcome = agentOutcome(turn.events, turn.error);
    }
    outcomes.push(outcome);
    return outcome;
  };

  return {
    agency,
    backend,
    url,
    client,
    stub,
    organizationId,
    owner,
    apiKey,
    mcpPathOf,
    credential,
    member(role) {
      let member = members.get(role);
      if (!member) {
        member = (async () => {
          const user = await signUp(client, `connectors-${role.toLowerCase()}`);
          await addMember(client, ownerUser, organizationId, user, role);
          return memberOf(user);
        })();
        members.set(role, member);
      }
      return member;
    },
    call,
    outcomes,
    async close() {
      await backend.close();
      await Promise.all([agency.close(), stub.close(), database.close()]);
    },
  };
}
