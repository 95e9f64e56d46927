import { randomUUID } from 'node:crypto';
import { CORE_ORG_ROLES, type ResourceCustomOperationKey, type ResourceSpecOf } from '@wildo/shared-lib';
import { expect } from 'vitest';
import { addMember, createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import {
  callTool,
  delegatedToken,
  MCP_BACKEND_OPTIONS,
  MCP_PATH,
  organizationApiKey,
  type ToolResult,
} from '../../testing/mcp.fixtures.js';
import { createTestBackend, type TestBackend } from '../../testing/test-backend.js';
import { refusalOf } from '../agents/runtime/turn-messages.js';
import { createToolExecutionContext, toolDispatchPath } from '../agents/index.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { WildoBackendOptions } from '../bootstrap/wildo-backend.js';
import type { ClientErrorFields } from '../errors/index.js';
import type { Authenticator } from '../identity/authenticator.service.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';
import { GOVERNANCE_META } from '../mcp/mcp-protocol.js';
import type { OperationDispatcher } from '../resources/operation-dispatcher.service.js';
import type { ResourcesRegistry } from '../resources/resources-registry.service.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import { governanceProbesApplication, stays } from './governance-probes.fixtures.js';
import type { WithheldValue } from './withheld.js';

/** The three ways in: REST, an MCP tool, an agent's tool called in process (as a turn runs it). */
export const SURFACES = ['rest', 'mcp', 'tool'] as const;
export type Surface = (typeof SURFACES)[number];

/** Who calls: an organization member, a manager (both people), or an API key with the member role. */
export type Caller = 'member' | 'manager' | 'machine';

/** What a call answered, alike on every surface. */
export type Outcome =
  | { ok: true; data: unknown; withheld: readonly WithheldValue[]; answer: unknown }
  | ({ ok: false; internal: boolean; answer: unknown } & Pick<
      ClientErrorFields,
      'reason' | 'violation' | 'upstreamStatus'
    > & { failure?: string; description?: string; structured?: unknown });

/** The stays' operations a test calls. */
export type StaysOperation = ResourceCustomOperationKey<ResourceSpecOf<typeof stays>>;

/** A backend serving the governance probes, an organization, its people and credentials on each surface. */
export interface GovernedStack {
  t: TestBackend;
  orgId: string;
  people: Record<'member' | 'manager', TestUser>;
  /** The API key (member role) used as the machine caller. */
  machineKey: string;
  /** A caller's MCP credential: a person's delegated token (obtained on first use), the machine's key. */
  mcpAuth(caller: Caller): Promise<string>;
  /** Each caller's verified principal, for the in-process tool path. */
  principals: Record<Caller, AuthenticatedPrincipal>;
}

/**
 * Starts the probes backend on `database` (the probes alone, unless `application` serves them among others) with a
 * member, a manager and a member-role API key.
 */
export async function governedStack(
  database: SqlDatabase,
  options: Partial<
    Pick<WildoBackendOptions, 'redisUrl' | 'coordinationKeyPrefix' | 'application' | 'env' | 'providers'>
  > = {},
): Promise<GovernedStack> {
  const t = await createTestBackend(database, {
    ...MCP_BACKEND_OPTIONS,
    application: governanceProbesApplication,
    ...options,
    allowServerErrors: true,
  });
  const owner = await signUp(t.api, 'owner');
  const orgId = await createOrganization(t.api, owner);
  const member = await signUp(t.api, 'member');
  const manager = await signUp(t.api, 'manager');
  await addMember(t.api, owner, orgId, member, CORE_ORG_ROLES.ORG_MEMBER);
  await addMember(t.api, owner, orgId, manager, CORE_ORG_ROLES.ORG_MANAGER);
  const machineKey = await organizationApiKey(t.api, owner, orgId, [CORE_ORG_ROLES.ORG_MEMBER]);
  const authenticator = t.backend.container.get<Authenticator>(SAAS_SERVICE_TYPES.Authenticator);
  const verified = async (header: string) => (await authenticator.authenticate(header)) as AuthenticatedPrincipal;
  const delegated = new Map<Caller, Promise<string>>([['machine', Promise.resolve(machineKey)]]);
  return {
    t,
    orgId,
    people: { member, manager },
    machineKey,
    mcpAuth(caller) {
      let auth = delegated.get(caller);
      if (!auth) delegated.set(caller, (auth = delegatedToken(t.api, caller === 'manager' ? manager : member)));
      return auth;
    },
    principals: {
      member: await verified(member.auth.Authorization),
      manager: await verified(manager.auth.Authorization),
      machine: await verified(machineKey),
    },
  };
}

function restOutcome(
  status: number,
  body: { data?: unknown; withheld?: WithheldValue[]; error?: Record<string, never> },
) {
  if (status < 300) return { ok: true as const, data: body.data, withheld: body.withheld ?? [], answer: body };
  const error = body.error as unknown as ClientErrorFields & {
    code: string;
    failure?: { code: string; description: string };
  };
  return {
    ok: false as const,
    internal: error.code === 'INTERNAL',
    answer: body,
    ...(error.reason ? { reason: error.reason } : {}),
    ...(error.failure ? { failure: error.failure.code, description: error.failure.description } : {}),
    ...(error.violation ? { violation: error.violation } : {}),
    ...(error.upstreamStatus !== undefined ? { upstreamStatus: error.upstreamStatus } : {}),
  };
}

function mcpOutcome(result: ToolResult): Outcome {
  const meta = (key: string) => result._meta?.[key] as Record<string, never> | undefined;
  if (!result.isError) {
    const projection = meta(GOVERNANCE_META.PROJECTION) as { withheld?: WithheldValue[] } | undefined;
    return { ok: true, data: result.structuredContent, withheld: projection?.withheld ?? [], answer: result };
  }
  const policy = meta(GOVERNANCE_META.POLICY_DENIED) ?? meta(GOVERNANCE_META.INPUT_INVALID);
  const violation = meta(GOVERNANCE_META.CONTRACT_VIOLATION) as { missing: string[]; invalid: [] } | undefined;
  const failure = meta(GOVERNANCE_META.OPERATION_FAILED) as { failure: string; description: string } | undefined;
  const error = meta(GOVERNANCE_META.TOOL_ERROR) as { error: string; upstreamStatus?: number } | undefined;
  return {
    ok: false,
    internal: error?.error === 'internal_error',
    answer: result,
    structured: result.structuredContent,
    ...(policy ? { reason: policy.reason } : {}),
    ...(violation ? { violation: { missing: violation.missing, invalid: violation.invalid } } : {}),
    ...(failure ? { failure: failure.failure, description: failure.description } : {}),
    ...(error?.upstreamStatus !== undefined ? { upstreamStatus: error.upstreamStatus } : {}),
  };
}

/**
 * Calls one of the stays' operations as `caller` through `surface`, and reads the answer the same way on each:
 * REST `POST /organizations/:org/stays/<op>`, MCP `tools/call stays__<op>`, or the resource's agent tool
 * (`stays.tools.write(op)`) run in process with the caller's verified principal, as a turn runs it.
 */
export async function callAs(
  stack: GovernedStack,
  surface: Surface,
  caller: Caller,
  operation: StaysOperation,
  args: Record<string, unknown>,
): Promise<Outcome> {
  const { t, orgId } = stack;
  if (surface === 'rest') {
    const auth = caller === 'machine' ? stack.machineKey : stack.people[caller].auth.Authorization;
    const res = await t.api
      .post(`/api/v1/organizations/${orgId}/stays/${operation}`)
      .set('Authorization', auth)
      .send(args);
    return restOutcome(res.status, res.body);
  }
  if (surface === 'mcp') {
    const name = `stays__${operation}`;
    const auth = await stack.mcpAuth(caller);
    return mcpOutcome(await callTool(t.api, MCP_PATH, auth, name, { ...args, organizationId: orgId }));
  }
  const { container } = t.backend;
  const path = toolDispatchPath(
    container.get<OperationDispatcher>(SAAS_SERVICE_TYPES.OperationDispatcher),
    container.get<ResourcesRegistry>(SAAS_SERVICE_TYPES.ResourcesRegistry),
  );
  const withheld: WithheldValue[] = [];
  const ctx = createToolExecutionContext(path, {
    principal: stack.principals[caller],
    onWithheld: (values) => withheld.push(...values),
    organizationId: orgId,
    executionId: randomUUID(),
    requestId: randomUUID(),
  });
  try {
    const data = await stays.tools.write(operation).execute(args, ctx);
    return { ok: true, data, withheld, answer: undefined };
  } catch (error) {
    const outcome = refusalOf(error);
    if (outcome.ok) throw new Error('a refusal is never ok');
    const { failure, ...fields } = outcome.error;
    return {
      ok: false,
      internal: fields.code === 'TOOL_FAILED',
      answer: outcome,
      ...(fields.reason ? { reason: fields.reason } : {}),
      ...(failure ? { failure: failure.code, description: failure.description } : {}),
      ...(fields.violation ? { violation: fields.violation } : {}),
      ...(fields.upstreamStatus !== undefined ? { upstreamStatus: fields.upstreamStatus } : {}),
    };
  }
}

/** The outcome of a call that must succeed. */
export function expectOk(outcome: Outcome): Extract<Outcome, { ok: true }> {
  expect(outcome.ok, JSON.stringify(outcome.answer)).toBe(true);
  return outcome as Extract<Outcome, { ok: true }>;
}

/** The outcome of a call that must be refused or fail. */
export function expectRefused(outcome: Outcome): Extract<Outcome, { ok: false }> {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(false);
  return outcome as Extract<Outcome, { ok: false }>;
}
