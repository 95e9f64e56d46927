import { describe, expect, it } from 'vitest';
import { addMember, createOrganization, signUp } from '../../testing/identity.fixtures.js';
import {
  callTool,
  callToolOk,
  delegatedToken,
  handshake,
  listToolNames,
  MCP_BACKEND_OPTIONS,
  MEMBER_TOOLS,
  MCP_HOST,
  MCP_PATH,
  MCP_SUPPORT_PATH,
  organizationApiKey,
  rpc,
  spyOnServices,
} from '../../testing/mcp.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import type { McpToolDescriptor } from './mcp-tools.types.js';
import { RPC_ERRORS } from './mcp-protocol.js';

const database = useTestDatabase();

async function organization(t: TestBackend) {
  const owner = await signUp(t.api, 'owner');
  const organizationId = await createOrganization(t.api, owner);
  return { owner, organizationId };
}

async function descriptors(
  t: TestBackend,
  authorization: string,
  path = MCP_PATH,
): Promise<Map<string, McpToolDescriptor>> {
  const res = await handshake(t.api, path, rpc('tools/list'), authorization);
  expect(res.status).toBe(200);
  return new Map((res.body.result.tools as McpToolDescriptor[]).map((tool) => [tool.name, tool]));
}

describe('MCP catalogue per caller', () => {
  it('shows a manager’s key the delete tool and hides it from a member’s key', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const manager = await organizationApiKey(t.api, owner, organizationId, ['ORG_MANAGER']);
    const member = await organizationApiKey(t.api, owner, organizationId, ['ORG_MEMBER']);
    expect((await listToolNames(t.api, MCP_PATH, manager)).sort()).toEqual([...MEMBER_TOOLS, 'todos__delete'].sort());
    expect((await listToolNames(t.api, MCP_PATH, member)).sort()).toEqual(MEMBER_TOOLS);
  });

  it('shows a person the tools of their best role in any of their organizations', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const { owner, organizationId } = await organization(t);
    const member = await signUp(t.api, 'member');
    await addMember(t.api, owner, organizationId, member, 'ORG_MEMBER');
    const memberToken = await delegatedToken(t.api, member);
    expect((await listToolNames(t.api, MCP_PATH, memberToken)).sort()).toEqual(MEMBER_TOOLS);
    // Managing another organization is enough to be offered the tool (calling still authorizes per organization).
    await createOrganization(t.api, member, 'Own');
    expect(await listToolNames(t.api, MCP_PATH, memberToken)).toContain('todos__delete');
  });

  it('shows a person without an organization no organization tools', async () => {
    await using t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
    const loner = await signUp(t.api);
    expect(await listToolNames(t.api, MCP_PATH, await delegatedToken(t.api, loner))).toEqual([]);
  });
});

describe('MCP named instances', () => {
  it('serves todos__stats and the knowledge tools on /mcp/support only', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const key = await organizationApiKey(t.api, owner, organizationId, ['ORG_MANAGER']);
    expect((await listToolNames(t.api, MCP_SUPPORT_PATH, key)).sort()).toEqual([
      'knowledge-documents__read',
      'knowledge-documents__search',
      'todos__stats',
    ]);
    const defaults = await listToolNames(t.api, MCP_PATH, key);
    for (const name of ['todos__stats', 'knowledge-documents__read', 'knowledge-documents__search'])
      expect(defaults).not.toContain(name);
  });

  it('calls todos__stats on /mcp/support', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const key = await organizationApiKey(t.api, owner, organizationId);
    await callToolOk(t.api, MCP_PATH, key, 'todos__create', { title: 'one' });
    expect(await callToolOk(t.api, MCP_SUPPORT_PATH, key, 'todos__stats')).toEqual({
      total: 1,
      byStatus: { todo: 1, in_progress: 0, done: 0 },
    });
  });

  it('answers todos__stats on the default catalogue as an unknown tool, dispatching nothing', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const key = await organizationApiKey(t.api, owner, organizationId);
    const services = spyOnServices(t);
    for (const name of ['todos__stats', 'knowledge-documents__search', 'no_such_tool']) {
      const res = await handshake(t.api, MCP_PATH, rpc('tools/call', { name, arguments: {} }), key);
      expect(res.status).toBe(200);
      expect(res.body.error).toEqual({ code: RPC_ERRORS.INVALID_PARAMS, message: 'Unknown tool.' });
    }
    expect(services.count()).toBe(0);
    // And a tool of the default catalogue is not reachable through the named instance.
    const res = await handshake(
      t.api,
      MCP_SUPPORT_PATH,
      rpc('tools/call', { name: 'todos__list', arguments: {} }),
      key,
    );
    expect(res.body.error.code).toBe(RPC_ERRORS.INVALID_PARAMS);
    expect(services.count()).toBe(0);
  });

  it('answers an unknown instance with 404, never with the default catalogue', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const key = await organizationApiKey(t.api, owner, organizationId);
    const services = spyOnServices(t);
    for (const body of [
      rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
      rpc('tools/list'),
      rpc('tools/call', { name: 'todos__list', arguments: {} }),
    ]) {
      const res = await handshake(t.api, '/api/v1/mcp/nope', body, key);
      expect(res.status).toBe(404);
      expect(res.body.result).toBeUndefined();
    }
    expect((await t.api.get('/api/v1/mcp/nope').set('Host', MCP_HOST)).status).toBe(404);
    expect((await t.api.get('/.well-known/oauth-protected-resource/api/v1/mcp/nope')).status).toBe(404);
    expect(services.count()).toBe(0);
  });
});

describe('MCP tool descriptors', () => {
  it('derives annotations from the effect and risk of each operation', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const tools = await descriptors(t, await organizationApiKey(t.api, owner, organizationId, ['ORG_MANAGER']));
    const hints = (name: string) => tools.get(name)?.annotations;
    for (const name of ['todos__read', 'todos__list', 'todos__search']) {
      expect(hints(name), name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    }
    expect(hints('todos__delete')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(hints('todos__update')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(hints('todos__create')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(hints('todos__complete')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('advertises the declared filters, limit and cursor of a list tool, and nothing else', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const list = (await descriptors(t, await organizationApiKey(t.api, owner, organizationId))).get('todos__list');
    const schema = list?.inputSchema as {
      type: string;
      properties: Record<string, { maximum?: number }>;
      additionalProperties: boolean;
      required?: string[];
    };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties).sort()).toEqual([
      'assignee',
      'cursor',
      'limit',
      'organizationId',
      'priority',
      'status',
    ]);
    expect(schema.properties.limit?.maximum).toBe(100);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required ?? []).toEqual([]);
  });

  it('requires the record id of an instance tool and takes its declared input', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const tools = await descriptors(t, await organizationApiKey(t.api, owner, organizationId));
    const read = tools.get('todos__read')?.inputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(read.properties).sort()).toEqual(['organizationId', 'todoId']);
    expect(read.required).toEqual(['todoId']);
    const complete = tools.get('todos__complete')?.inputSchema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(complete.properties).sort()).toEqual(['note', 'organizationId', 'todoId']);
    // Read-only fields are never input.
    const update = tools.get('todos__update')?.inputSchema as { properties: Record<string, unknown> };
    expect(update.properties).not.toHaveProperty('completedAt');
    expect(update.properties).not.toHaveProperty('completionNote');
  });

  it('declares an output schema for object results, pages included', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const tools = await descriptors(t, await organizationApiKey(t.api, owner, organizationId));
    const read = tools.get('todos__read')?.outputSchema as { type: string; properties: Record<string, unknown> };
    expect(read.type).toBe('object');
    expect(read.properties).toHaveProperty('title');
    expect(read.properties).toHaveProperty('_id');
    const page = tools.get('todos__list')?.outputSchema as { type: string; properties: { data: { type: string } } };
    expect(page.type).toBe('object');
    expect(Object.keys(page.properties).sort()).toEqual(['data', 'nextCursor']);
    expect(page.properties.data.type).toBe('array');
  });

  it('keeps the pagination shape of a collection result', async () => {
    await using t = await createTestBackend(database());
    const { owner, organizationId } = await organization(t);
    const key = await organizationApiKey(t.api, owner, organizationId);
    for (const title of ['first', 'second', 'third'])
      await callToolOk(t.api, MCP_PATH, key, 'todos__create', { title });
    const first = await callToolOk(t.api, MCP_PATH, key, 'todos__list', { limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(typeof first.nextCursor).toBe('string');
    const second = await callToolOk(t.api, MCP_PATH, key, 'todos__list', { limit: 2, cursor: first.nextCursor });
    expect(second).toMatchObject({ nextCursor: null });
    expect(second.data).toHaveLength(1);
    const titles = [...(first.data as { title: string }[]), ...(second.data as { title: string }[])].map(
      (todo) => todo.title,
    );
    expect(titles.sort()).toEqual(['first', 'second', 'third']);
    const filtered = await callTool(t.api, MCP_PATH, key, 'todos__list', { status: 'done' });
    expect(filtered.structuredContent).toEqual({ data: [], nextCursor: null });
  });
});
