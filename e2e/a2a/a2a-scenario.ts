import { randomUUID } from 'node:crypto';
import { createCheckRecorder, type CheckRecorder, type CheckResult, type LogLine } from '../support/check-recorder.js';
import { createOrganization, signUp, uniqueMarker, type ScenarioUser } from '../support/fixtures.js';
import { createHttpClient, type HttpClient, type HttpResult } from '../support/http-client.js';
import {
  createOrganizationApiKey,
  createPublicOAuthClient,
  delegatedToken,
  protectedResourceOf,
  type McpCredential,
} from '../support/mcp-credentials.js';
import { describeError, stackAnswers } from '../support/script-entry.js';

/** The default A2A endpoint and the reference application's named instance. */
export const A2A_PATH = '/api/v1/a2a';
export const CONCIERGE_PATH = '/api/v1/a2a/concierge';
/** The skill every scenario addresses (the reference application's todo assistant). */
export const SKILL = 'todo-assistant';

/** One organization of a scenario: its admin, an API key, delegated tokens for the two A2A audiences. */
export interface A2aTenant {
  admin: ScenarioUser;
  organizationId: string;
  apiKey: McpCredential;
  a2aToken: McpCredential;
  conciergeToken: McpCredential;
}

/** What a scenario section works with. */
export interface A2aScenarioContext {
  client: HttpClient;
  recorder: CheckRecorder;
  a: A2aTenant;
  b: A2aTenant;
  note: LogLine;
}

/** One named part of a scenario. */
export interface A2aScenarioSection {
  title: string;
  run: (context: A2aScenarioContext) => Promise<void>;
}

/** A JSON-RPC call's answer: the HTTP status, and the result or error (frames for a stream). */
export interface RpcAnswer {
  status: number;
  result?: any;
  error?: { code: number; message: string; data?: any };
  frames: any[];
  headers: Headers;
}

async function tenant(
  client: HttpClient,
  label: string,
  audiences: { a2a: string; concierge: string },
): Promise<A2aTenant> {
  const admin = await signUp(client, `a2a-${label}`);
  const organizationId = await createOrganization(client, admin, uniqueMarker(`e2e A2A org ${label}`));
  const apiKey = await createOrganizationApiKey(client, admin, organizationId, { label: `API key of org ${label}` });
  const oauthClient = await createPublicOAuthClient(client, admin, organizationId, `e2e A2A peer of org ${label}`);
  return {
    admin,
    organizationId,
    apiKey,
    a2aToken: await delegatedToken(client, admin, oauthClient, audiences.a2a, `delegated /a2a token of ${label}`),
    conciergeToken: await delegatedToken(
      client,
      admin,
      oauthClient,
      audiences.concierge,
      `concierge token of ${label}`,
    ),
  };
}

/** A 0.3 user message. */
export function legacyMessage(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text }], ...extra };
}

/** A 1.0 user message. */
export function v1Message(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { role: 'ROLE_USER', messageId: randomUUID(), parts: [{ text }], ...extra };
}

/** A 0.3 `message/send` of `text` to the default card's skill, with more `params` (a configuration, ...). */
export function sendToSkill(
  context: Pick<A2aScenarioContext, 'client'>,
  text: string,
  credential: McpCredential,
  params: Record<string, unknown> = {},
): Promise<RpcAnswer> {
  return rpc(
    context.client,
    A2A_PATH,
    'message/send',
    { message: legacyMessage(text), metadata: { skillId: SKILL }, ...params },
    credential,
  );
}

/** Calls an A2A method (1.0 names carry `A2A-Version: 1.0`); a stream's frames are read to its end. */
export async function rpc(
  client: HttpClient,
  path: string,
  method: string,
  params: Record<string, unknown>,
  credential: McpCredential | undefined,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const res: HttpResult = await client.post(
    path,
    { jsonrpc: '2.0', id: 1, method, params },
    {
      ...(credential ? { authorization: credential.header() } : {}),
      headers: {
        ...(/^[A-Z]/.test(method) ? { 'a2a-version': '1.0' } : {}),
        accept: 'application/json, text/event-stream',
        ...headers,
      },
    },
  );
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const frames = res.text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice(6)) as { result?: unknown; error?: unknown });
    return { status: res.status, frames: frames.map((f) => f.result ?? { error: f.error }), headers: res.headers };
  }
  const body = res.body as { result?: unknown; error?: RpcAnswer['error'] } | undefined;
  return {
    status: res.status,
    result: body?.result,
    ...(body?.error ? { error: body.error } : {}),
    frames: [],
    headers: res.headers,
  };
}

/** A short description of an answer for a failed check: status and error code, never a body. */
export function describe(answer: RpcAnswer): string {
  return `HTTP ${answer.status}${answer.error ? `, error ${answer.error.code} ${answer.error.message}` : ''}`;
}

/** The task of a send's result, in either dialect (0.3: the task itself; 1.0: `{ task }`). */
export function taskOf(answer: RpcAnswer): any {
  const result = answer.result;
  return result?.task ?? (result?.kind === 'task' ? result : undefined);
}

/** The state of a task in either spelling, canonical (`completed`). */
export function stateOf(task: any): string | undefined {
  const state = task?.status?.state;
  return typeof state === 'string'
    ? state
        .replace(/^TASK_STATE_/, '')
        .toLowerCase()
        .replace('_', '-')
    : undefined;
}

/** What a run proved. */
export interface A2aScenarioResults {
  passed: number;
  failed: number;
  failures: CheckResult[];
  checks: CheckResult[];
}

/**
 * Runs a scenario's sections against `baseUrl` after provisioning two organizations through the public API (two
 * sign-ups). An unreachable stack or a failed setup is a failed check, never a pass; so is a model provider that
 * does not answer (a model-mediated check that did not run proved nothing).
 */
export async function runA2aScenario(
  title: string,
  baseUrl: string,
  log: LogLine,
  sections: readonly A2aScenarioSection[],
): Promise<A2aScenarioResults> {
  const client = createHttpClient(baseUrl);
  const recorder = createCheckRecorder(log);
  log(`${title} against ${client.baseUrl}`);
  if (await stackAnswers(client, recorder)) {
    try {
      const audiences = {
        a2a: await protectedResourceOf(client, A2A_PATH),
        concierge: await protectedResourceOf(client, CONCIERGE_PATH),
      };
      const a = await tenant(client, 'A', audiences);
      const b = await tenant(client, 'B', audiences);
      recorder.check('setup: two organizations with API keys and delegated A2A tokens (public API)', true);
      const context: A2aScenarioContext = { client, recorder, a, b, note: log };
      for (const section of sections) {
        recorder.section(section.title);
        try {
          await section.run(context);
        } catch (error) {
          recorder.check(`${section.title}: section completed`, false, describeError(error));
        }
      }
    } catch (error) {
      recorder.check('setup: organizations and credentials provisioned', false, describeError(error));
    }
    const serverErrors = client.exchanges.filter((e) => e.status >= 500 && e.status !== 503);
    recorder.check(
      `Z-1 no response was an internal error (${client.exchanges.length} responses)`,
      serverErrors.length === 0,
    );
  }
  const summary = recorder.summarize();
  return { ...summary, checks: [...recorder.results] };
}

/**
 * Sends one blocking message as tenant `a` and reports whether a model answered: every later model-mediated check
 * depends on it (a stack without a provider refuses the turn with 503).
 */
export async function modelAnswers(context: A2aScenarioContext): Promise<boolean> {
  const answer = await sendToSkill(context, 'Say hello.', context.a.a2aToken);
  return context.recorder.check(
    'M-0 CONTROL a model answers a blocking message/send (otherwise model-mediated checks are unexecuted)',
    stateOf(taskOf(answer)) === 'completed',
    describe(answer),
  );
}
