import { describe, expect, it } from 'vitest';
import { createOrganization, signUp } from '../../testing/identity.fixtures.js';
import {
  callTool,
  callToolOk,
  handshake,
  listToolNames,
  MCP_BACKEND_OPTIONS,
  MCP_PATH,
  organizationApiKey,
  rpc,
  spyOnServices,
} from '../../testing/mcp.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { INTERNAL_DETAIL, LEAKED, mcpProbesApplication } from './mcp-probes.fixtures.js';
import { GOVERNANCE_META } from './mcp-protocol.js';
import type { McpToolDescriptor } from './mcp-tools.types.js';

const database = useTestDatabase();

async function probesBackend() {
  const t = await createTestBackend(database(), { ...MCP_BACKEND_OPTIONS, application: mcpProbesApplication });
  const owner = await signUp(t.api);
  const organizationId = await createOrganization(t.api, owner);
  return { t, owner, organizationId, key: await organizationApiKey(t.api, owner, organizationId) };
}

async function descriptor(t: TestBackend, key: string, name: string): Promise<McpToolDescriptor | undefined> {
  const res = await handshake(t.api, MCP_PATH, rpc('tools/list'), key);
  return (res.body.result.tools as McpToolDescriptor[]).find((tool) => tool.name === name);
}

describe('MCP lifecycle', () => {
  it('lists stable tools (control for the lifecycle states below)', async () => {
    const { t, key } = await probesBackend();
    await using _ = t;
    const names = await listToolNames(t.api, MCP_PATH, key);
    expect(names).toEqual(expect.arrayContaining(['probes__create', 'probes__leaky', 'probes__tags']));
  });

  it('leaves an experimental tool unlisted but callable by name', async () => {
    const { t, key } = await probesBackend();
    await using _ = t;
    expect(await listToolNames(t.api, MCP_PATH, key)).not.toContain('probes__preview');
    expect(await callToolOk(t.api, MCP_PATH, key, 'probes__preview')).toEqual({ ok: true });
  });

  it('lists a deprecated tool with a phasing-out note, and it still works', async () => {
    const { t, key } = await probesBackend();
    await using _ = t;
    const legacy = await descriptor(t, key, 'probes__legacy');
    expect(legacy?.description).toMatch(/^The old way\. \(Deprecated: .*phased out.*\)$/);
    expect(await callToolOk(t.api, MCP_PATH, key, 'probes__legacy')).toEqual({ ok: true });
  });

  it('neither lists nor runs a retired tool: lifecycle_blocked, nothing dispatched', async () => {
    const { t, key } = await probesBackend();
    await using _ = t;
    expect(await listToolNames(t.api, MCP_PATH, key)).not.toContain('probes__sunset');
    const services = spyOnServices(t);
    const result = await callTool(t.api, MCP_PATH, key, 'probes__sunset', { probeId: 'p-1', reason: 'try' });
    expect(result.isError).toBe(true);
    expect(result._meta?.[GOVERNANCE_META.LIFECYCLE_BLOCKED]).toEqual({
      error: 'lifecycle_blocked',
      tool: 'probes__sunset',
      reason: 'lifecycle_blocked',
      lifecycle: 'retired',
    });
    expect(result.structuredContent).toBeUndefined();
    expect(services.count()).toBe(0);
  });

  it('answers a retired tool as retired whatever its arguments (lifecycle before input)', async () => {
    const { t, key } = await probesBackend();
    await using _ = t;
    const services = spyOnServices(t);
    for (const args of [{}, { probeId: 42 }, { probeId: 'p-1', organizationId: 'not-mine', extra: true }]) {
      const result = await callTool(t.api, MCP_PATH, key, 'probes__sunset', args);
      expect(Object.keys(result._meta ?? {}), JSON.stringify(args)).toEqual([GOVERNANCE_META.LIFECYCLE_BLOCKED]);
    }
    expect(services.count()).toBe(0);
  });
});

describe('MCP result projection', () => {
  it('returns a declared result as structured content and text, with nothing withheld (control)', async () => {
    const { t, key } = await probesBackend();
    await using _ = t;
    const result = await callTool(t.api, MCP_PATH, key, 'probes__create', { label: 'clean' });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ label: 'clean' });
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
    expect(result._meta).toBeUndefined();
  });

  it('drops undeclared fields at every depth and reports where, without naming them', async () => {
    const { t, key } = await probesBackend();
    await using _ = t;
    const result = await callTool(t.api, MCP_PATH, key, 'probes__leaky');
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      title: 'Quarterly report',
      owner: { name: 'Ada' },
      items: [{ label: 'first' }, { label: 'second' }],
    });
    const withheld = (result._meta![GOVERNANCE_META.PROJECTION] as { withheld: { path: string; reason: string }[] })
      .withheld;
    expect(withheld.map(({ path }) => path).sort()).toEqual(['*', 'items[1].*', 'owner.*']);
    expect(new Set(withheld.map(({ reason }) => reason))).toEqual(new Set(['undeclared']));
    const text = result.content.map((block) => block.text).join('\n');
    expect(text).toContain('Withheld');
    for (const { path } of withheld) expect(text).toContain(path);
    const everything = JSON.stringify(result);
    for (const leaked of [...LEAKED.keys, ...LEAKED.values]) expect(everything).not.toContain(leaked);
  });

  it('returns a non-object result as text only, with no output schema to satisfy', async () => {
    const { t, key } = await probesBackend();
    await using _ = t;
    expect((await descriptor(t, key, 'probes__tags'))?.outputSchema).toBeUndefined();
    expect((await descriptor(t, key, 'probes__leaky'))?.outputSchema).toMatchObject({ type: 'object' });
    const result = await callTool(t.api, MCP_PATH, key, 'probes__tags');
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(['alpha', 'beta']);
  });
});

describe('MCP failures past admission', () => {
  it('turns a failing handler into a tool error that says nothing internal', async () => {
    const { t, key } = await probesBackend();
    await using _ = t;
    await callToolOk(t.api, MCP_PATH, key, 'probes__preview');
    const result = await callTool(t.api, MCP_PATH, key, 'probes__explode');
    expect(result.isError).toBe(true);
    expect(result._meta).toEqual({
      [GOVERNANCE_META.TOOL_ERROR]: { error: 'internal_error', tool: 'probes__explode' },
    });
    expect(result.content[0]?.text).toBe('probes__explode failed on the server.');
    expect(JSON.stringify(result)).not.toMatch(new RegExp(`${INTERNAL_DETAIL}|10\\.0\\.0\\.7`));
  });
});
