import type supertest from 'supertest';
import { expect, vi } from 'vitest';
import { SAAS_SERVICE_TYPES } from '../engine/container/saas-service-types.tokens.js';
import type { WildoBackendOptions } from '../engine/bootstrap/wildo-backend.js';
import { GOVERNANCE_META, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../engine/mcp/mcp-protocol.js';
import type { ServicesRegistryHandler } from '../engine/resources/services-registry-handler.service.js';
import type { TestUser } from './identity.fixtures.js';
import { delegateTo, MCP_AUDIENCE, registerPublicClient } from './oauth.fixtures.js';
import type { TestBackend } from './test-backend.js';

/** The `Host` of the backends tests build (their default public URL); the MCP endpoint checks it. */
export const MCP_HOST = 'localhost:4241';
/** The default MCP endpoint. */
export const MCP_PATH = '/api/v1/mcp';
/** The reference application's `support` instance. */
export const MCP_SUPPORT_PATH = '/api/v1/mcp/support';
/** The handshake-era revision tests speak unless they say otherwise. */
export const HANDSHAKE_VERSION = '2025-11-25';
/** The stateless revision. */
export const STATELESS_VERSION = '2026-07-28';

/** The reference application's tools an ORG_MEMBER is offered on the default endpoint (sorted). */
export const MEMBER_TOOLS: readonly string[] = [
  'todos__complete',
  'todos__create',
  'todos__list',
  'todos__read',
  'todos__search',
  'todos__update',
];

/** Backend options that let tests register OAuth clients (to obtain delegated tokens). */
export const MCP_BACKEND_OPTIONS: Partial<WildoBackendOptions> = {
  oauth: { dynamicClientRegistration: { enabled: true, maxRegistrationsPerHourPerIp: 1_000 } },
};

/** A JSON-RPC request body. */
export function rpc(
  method: string,
  params?: Record<string, unknown>,
  id: number | string = 1,
): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
}

/** A raw POST to an MCP endpoint with the right `Host` and media types; headers and body as given. */
export function mcpPost(
  api: supertest.Agent,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): supertest.Test {
  return api
    .post(path)
    .set({
      Host: MCP_HOST,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    })
    .send(body as object);
}

/** A handshake-era request (after initialization): `MCP-Protocol-Version` plus an optional credential. */
export function handshake(
  api: supertest.Agent,
  path: string,
  body: unknown,
  authorization?: string,
  version = HANDSHAKE_VERSION,
): supertest.Test {
  return mcpPost(api, path, body, {
    'MCP-Protocol-Version': version,
    ...(authorization ? { Authorization: authorization } : {}),
  });
}

/** The `_meta` a stateless request carries. */
export function statelessMeta(version = STATELESS_VERSION): Record<string, unknown> {
  return { [META_PROTOCOL_VERSION]: version, [META_CLIENT_CAPABILITIES]: {} };
}

/** A well-formed stateless (2026-07-28) request: mirrored headers and per-request `_meta`. */
export function stateless(
  api: supertest.Agent,
  path: string,
  method: string,
  params: Record<string, unknown> = {},
  authorization?: string,
): supertest.Test {
  const name: Record<string, string> =
    method === 'tools/call' && typeof params.name === 'string' ? { 'Mcp-Name': params.name } : {};
  return mcpPost(api, path, rpc(method, { ...params, _meta: statelessMeta() }), {
    'MCP-Protocol-Version': STATELESS_VERSION,
    'Mcp-Method': method,
    ...name,
    ...(authorization ? { Authorization: authorization } : {}),
  });
}

/** A tool result as returned by `tools/call`. */
export interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
  _meta?: Record<string, unknown>;
}

/** The governed policy refusal of a result (`dev.wildo/policy_denied`). */
export function policyDenied(result: ToolResult): { error: string; tool: string; reason: string } | undefined {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return result._meta?.[GOVERNANCE_META.POLICY_DENIED] as { error: string; tool: string; reason: string } | undefined;
}

/** The governed tool error of a result (`dev.wildo/tool_error`). */
export function toolError(result: ToolResult): { error: string; tool: string } | undefined {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  return result._meta?.[GOVERNANCE_META.TOOL_ERROR] as { error: string; tool: string } | undefined;
}

/** Calls a tool (handshake era) and returns its result; fails the test on a JSON-RPC error. */
export async function callTool(
  api: supertest.Agent,
  path: string,
  authorization: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  const res = await handshake(api, path, rpc('tools/call', { name, arguments: args }), authorization);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.error, JSON.stringify(res.body)).toBeUndefined();
  return res.body.result as ToolResult;
}

/** Calls a tool and expects a success; returns its structured content. */
export async function callToolOk(
  api: supertest.Agent,
  path: string,
  authorization: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const result = await callTool(api, path, authorization, name, args);
  expect(result.isError, JSON.stringify(result)).toBe(false);
  return result.structuredContent as Record<string, unknown>;
}

/** The tool names a caller sees (handshake era). */
export async function listToolNames(api: supertest.Agent, path: string, authorization: string): Promise<string[]> {
  const res = await handshake(api, path, rpc('tools/list'), authorization);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.result.tools as { name: string }[]).map((tool) => tool.name);
}

/** Obtains a person's delegated token for exactly `audience` (authorization code + PKCE, consent approved). */
export async function delegatedToken(api: supertest.Agent, person: TestUser, audience = MCP_AUDIENCE): Promise<string> {
  return delegateTo(api, person, await registerPublicClient(api), { resource: audience });
}

/** Creates an organization API key with `roles` and returns its plaintext (sent as the whole `Authorization`). */
export async function organizationApiKey(
  api: supertest.Agent,
  admin: TestUser,
  organizationId: string,
  roles: string[] = ['ORG_MEMBER'],
): Promise<string> {
  const res = await api
    .post(`/api/v1/organizations/${organizationId}/api-keys`)
    .set(admin.auth)
    .send({ name: 'MCP test', roles });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.plainKey as string;
}

/** Counts calls that reach the service layer (core and custom operations) from now on. */
export function spyOnServices(t: TestBackend): { count(): number; reset(): void } {
  const services = t.backend.container.get<ServicesRegistryHandler>(SAAS_SERVICE_TYPES.ServicesRegistryHandler);
  const core = vi.spyOn(services, 'executeCoreOperation');
  const custom = vi.spyOn(services, 'executeCustomOperation');
  return {
    count: () => core.mock.calls.length + custom.mock.calls.length,
    reset: () => {
      core.mockClear();
      custom.mockClear();
    },
  };
}
