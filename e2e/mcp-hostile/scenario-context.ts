import type { CheckRecorder } from '../support/check-recorder.js';
import type { ScenarioUser } from '../support/fixtures.js';
import type { HttpClient } from '../support/http-client.js';
import { describeExchange, refusalOf, type McpExchange } from '../support/mcp-client.js';
import type { McpCredential } from '../support/mcp-credentials.js';
import { disclosedAmong } from '../support/responses.js';

/** The default MCP endpoint and the reference application's named instance. */
export const MCP_PATH = '/api/v1/mcp';
export const SUPPORT_PATH = '/api/v1/mcp/support';

/** Counts calls that reached the service layer (in-process runs: a spy on the container's ServicesRegistryHandler). */
export interface ServiceCallCounter {
  count(): number;
}

/** Tools only an in-process application declares (the reference application has none of them). */
export interface InProcessTools {
  /** A retired tool exposed on the default endpoint: never listed, refused with lifecycle_blocked. */
  retired: { name: string; arguments: (organizationId: string) => Record<string, unknown> };
  /** A user-scoped tool on the default endpoint: a person may call it, an organization machine gets principal_not_allowed. */
  userScoped: { name: string; arguments: Record<string, unknown> };
}

/** Options of the MCP hostile scenario. */
export interface McpHostileOptions {
  /** Present in-process only: every refusal is then also checked against the service-layer spy. */
  serviceCalls?: ServiceCallCounter;
  /** Present in-process only: reaches lifecycle_blocked and principal_not_allowed. */
  inProcessTools?: InProcessTools;
  /** The stack's blanket burst throttle (points per window; the engine's default is 600 per 10 s); 0 skips that probe. */
  burstPoints?: number;
}

/** One organization as the scenario provisions it. */
export interface McpTenant {
  admin: ScenarioUser;
  organizationId: string;
  /** An organization API key with ORG_MEMBER. */
  apiKey: McpCredential;
  /** The admin's (ORG_ADMIN) delegated token for the default endpoint. */
  mcpToken: McpCredential;
  /** The admin's delegated token for the `support` instance. */
  supportToken: McpCredential;
}

/** Everything the sections share: two tenants, a plain member of A and the endpoints' audiences. */
export interface McpWorld {
  mcpAudience: string;
  supportAudience: string;
  a: McpTenant;
  b: McpTenant;
  /** An ORG_MEMBER of organization A and their delegated token for the default endpoint. */
  memberA: { user: ScenarioUser; mcpToken: McpCredential };
}

/** What every section works with. */
export interface McpScenarioContext {
  client: HttpClient;
  recorder: CheckRecorder;
  world: McpWorld;
  options: McpHostileOptions;
  /** Prints a line that is not a check (what a run against this stack cannot reach, and why). */
  note: (line: string) => void;
  /** Runs a refused call; in-process, also records that no call reached the service meanwhile. */
  refused: <T>(label: string, action: () => Promise<T>) => Promise<T>;
}

/** One section of the scenario. */
export interface McpScenarioSection {
  title: string;
  run(context: McpScenarioContext): Promise<void>;
}

/** Records a positive control on a tool call: a result that is not an error, and `extra` holds. */
export function checkToolControl(recorder: CheckRecorder, label: string, exchange: McpExchange, extra = true): boolean {
  const ok = exchange.http.status === 200 && exchange.result !== undefined && exchange.result.isError !== true && extra;
  return recorder.check(label, ok, describeExchange(exchange));
}

/** What a governed refusal (an `isError` result) must look like. */
export interface ExpectedToolRefusal {
  /** The `_meta` key: `dev.wildo/policy_denied`, `dev.wildo/input_invalid`, `dev.wildo/lifecycle_blocked`, `dev.wildo/tool_error`. */
  key: string;
  reason?: string;
  error?: string;
  mustNotDisclose?: readonly string[];
}

/** Records a governed refusal: HTTP 200, `isError`, the `_meta` key and reason, nothing forbidden disclosed, no structured content. */
export function checkToolRefusal(
  recorder: CheckRecorder,
  label: string,
  exchange: McpExchange,
  expected: ExpectedToolRefusal,
): boolean {
  const refusal = refusalOf(exchange);
  const problems: string[] = [];
  if (exchange.http.status !== 200) problems.push('expected HTTP 200');
  if (!refusal) problems.push('expected an isError result');
  else {
    if (refusal.key !== expected.key) problems.push(`expected _meta ${expected.key}`);
    if (expected.reason !== undefined && refusal.reason !== expected.reason)
      problems.push(`expected reason ${expected.reason}`);
    if (expected.error !== undefined && refusal.error !== expected.error)
      problems.push(`expected error ${expected.error}`);
  }
  if (exchange.result?.structuredContent !== undefined) problems.push('a refusal carries structuredContent');
  const leaked = disclosedAmong(exchange.http, expected.mustNotDisclose ?? []);
  if (leaked.length > 0) problems.push(`discloses ${leaked.length} forbidden value(s)`);
  return recorder.check(label, problems.length === 0, `${describeExchange(exchange)}; ${problems.join('; ')}`);
}

/** What a transport-level refusal (HTTP status with a JSON-RPC error) must look like. */
export interface ExpectedRpcRefusal {
  status: number;
  code?: number;
  /** A substring the `WWW-Authenticate` header must contain. */
  challenge?: string;
  mustNotDisclose?: readonly string[];
}

/** Records a refusal answered before dispatch: status, JSON-RPC error code, challenge header. */
export function checkRpcRefusal(
  recorder: CheckRecorder,
  label: string,
  exchange: McpExchange,
  expected: ExpectedRpcRefusal,
): boolean {
  const problems: string[] = [];
  if (exchange.http.status !== expected.status) problems.push(`expected status ${expected.status}`);
  if (expected.code !== undefined && exchange.error?.code !== expected.code)
    problems.push(`expected rpc error ${expected.code}`);
  if (exchange.result !== undefined) problems.push('answered with a result');
  const challenge = exchange.http.headers.get('www-authenticate') ?? '';
  if (expected.challenge !== undefined && !challenge.includes(expected.challenge))
    problems.push(`expected WWW-Authenticate with ${expected.challenge}`);
  const leaked = disclosedAmong(exchange.http, expected.mustNotDisclose ?? []);
  if (leaked.length > 0) problems.push(`discloses ${leaked.length} forbidden value(s)`);
  return recorder.check(label, problems.length === 0, `${describeExchange(exchange)}; ${problems.join('; ')}`);
}
