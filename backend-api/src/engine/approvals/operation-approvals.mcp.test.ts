import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, MCP_PATH, mcpPost, rpc, STATELESS_VERSION } from '../../testing/mcp.fixtures.js';
import { useTestDatabase } from '../../testing/test-backend.js';
import { defineBackendApplication } from '../bootstrap/backend-domain-module.js';
import { agency, governanceProbesApplication } from '../governance/governance-probes.fixtures.js';
import { governedStack, type GovernedStack } from '../governance/governance-surfaces.fixtures.js';
import { RequestStateCodec } from '../mcp/index.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../mcp/mcp-protocol.js';
import { approvalProbesModule } from './approval-probes.fixtures.js';

// MCP: a tool whose operation declares approval asks the client's person (an `input_required` round on 2026-07-28,
// `elicitation/create` on the call's stream before it) when the client declared elicitation, and otherwise refuses
// naming the approvals page. Nothing reaches the agency before a person approved that exact call.

const database = useTestDatabase();
let stack: GovernedStack;
const TOOL = 'refunds__issue';

beforeAll(async () => {
  stack = await governedStack(database(), {
    application: defineBackendApplication({
      ...governanceProbesApplication,
      modules: [...governanceProbesApplication.modules, approvalProbesModule],
    }),
  });
});
afterAll(() => stack?.t.close());

const refunds = () => agency.reached('refund');
const args = (bookingId: string, amount = 20) => ({ organizationId: stack.orgId, bookingId, amount });

/** A 2026-07-28 `tools/call` from a client that declares elicitation; `extra` carries a retry's fields. */
async function statelessCall(caller: 'member' | 'manager', toolArgs: Record<string, unknown>, extra = {}) {
  const res = await mcpPost(
    stack.t.api,
    MCP_PATH,
    rpc('tools/call', {
      name: TOOL,
      arguments: toolArgs,
      ...extra,
      _meta: { [META_PROTOCOL_VERSION]: STATELESS_VERSION, [META_CLIENT_CAPABILITIES]: { elicitation: {} } },
    }),
    {
      'MCP-Protocol-Version': STATELESS_VERSION,
      'Mcp-Method': 'tools/call',
      'Mcp-Name': TOOL,
      Authorization: await stack.mcpAuth(caller),
    },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as Record<string, any>;
}

const accept = (approve: boolean) => ({ inputResponses: { approval: { action: 'accept', content: { approve } } } });
const reasonOf = (result: Record<string, any>) => result._meta?.['dev.wildo/policy_denied']?.reason as string;

describe('MCP 2026-07-28: an input_required round', () => {
  it('asks with an elicitation input request and a requestState; the answered retry runs once', async () => {
    const before = refunds();
    const first = await statelessCall('member', args('M-1'));
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { approval: { method: 'elicitation/create', params: { mode: 'form' } } },
      requestState: expect.any(String),
    });
    expect(refunds()).toBe(before);
    const done = await statelessCall('member', args('M-1'), { ...accept(true), requestState: first.requestState });
    expect(done).toMatchObject({ resultType: 'complete', isError: false, structuredContent: { refunded: 20 } });
    expect(refunds()).toBe(before + 1);
    // The same requestState again: the approval it names was used.
    const replay = await statelessCall('member', args('M-1'), { ...accept(true), requestState: first.requestState });
    expect(reasonOf(replay)).toBe('approval_invalid');
    expect(refunds()).toBe(before + 1);
  });

  it('refuses a requestState presented with other arguments, by another caller, or forged; declining denies', async () => {
    const before = refunds();
    const first = await statelessCall('member', args('M-2'));
    const state = first.requestState as string;
    const altered = await statelessCall('member', args('M-2', 9_999), { ...accept(true), requestState: state });
    expect(reasonOf(altered)).toBe('approval_invalid');
    const foreign = await statelessCall('manager', args('M-2'), { ...accept(true), requestState: state });
    expect(reasonOf(foreign)).toBe('approval_invalid');
    const forged = await statelessCall('member', args('M-2'), { ...accept(true), requestState: `${state}x` });
    expect(reasonOf(forged)).toBe('approval_invalid');
    expect(refunds()).toBe(before);
    const declined = await statelessCall('member', args('M-2'), { ...accept(false), requestState: state });
    expect(reasonOf(declined)).toBe('approval_denied');
    expect(refunds()).toBe(before);
  });

  it('refuses an expired requestState', () => {
    const key = Buffer.alloc(32, 7);
    let now = new Date('2026-12-04T10:00:00Z');
    const codec = new RequestStateCodec(key, () => now);
    const principal = stack.principals.member;
    const state = codec.encode({ approvalId: 'a' }, principal, TOOL, { x: 1 });
    expect(codec.decode(state, principal, TOOL, { x: 1 })).toEqual({ approvalId: 'a' });
    now = new Date('2026-12-04T10:16:00Z');
    expect(() => codec.decode(state, principal, TOOL, { x: 1 })).toThrow(/expired/);
  });
});

describe('MCP handshake revisions', () => {
  it('sends elicitation/create on the call’s stream to a client that declared elicitation, and runs the approved call', async () => {
    const { url } = await stack.t.backend.listen(0);
    const endpoint = new URL(`http://localhost:${new URL(url).port}${MCP_PATH}`);
    const client = new Client({ name: 'approver', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    const refundsWhenAsked: number[] = [];
    let answer = true;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      refundsWhenAsked.push(refunds());
      return { action: 'accept', content: { approve: answer } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: { Authorization: await stack.mcpAuth('member') } },
      }),
    );
    const before = refunds();
    try {
      const ran = (await client.callTool({ name: TOOL, arguments: args('H-1', 33) })) as Record<string, any>;
      expect(ran.isError).toBe(false);
      expect(ran.structuredContent).toEqual({ refunded: 33 });
      // What the person sees names the call's arguments, exactly as they will run; nothing ran before the answer.
      expect(asked[0]).toContain('"bookingId": "H-1"');
      expect(refundsWhenAsked[0]).toBe(before);
      expect(refunds()).toBe(before + 1);
      answer = false;
      const denied = (await client.callTool({ name: TOOL, arguments: args('H-2') })) as Record<string, any>;
      expect(reasonOf(denied)).toBe('approval_denied');
      expect(refunds()).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it('refuses a client without elicitation, naming the approvals page; the call runs once after the person approved it there', async () => {
    const before = refunds();
    const auth = await stack.mcpAuth('member');
    const refused = await callTool(stack.t.api, MCP_PATH, auth, TOOL, args('N-1'));
    expect(refused.isError).toBe(true);
    const meta = refused._meta?.['dev.wildo/policy_denied'] as { reason: string; approval: { id: string } };
    expect(meta.reason).toBe('approval_required');
    expect(JSON.stringify(refused.content)).toContain('/approvals#');
    expect(refunds()).toBe(before);
    const id = meta.approval.id;
    const retry = () =>
      mcpPost(
        stack.t.api,
        MCP_PATH,
        rpc('tools/call', { name: TOOL, arguments: args('N-1'), _meta: { 'dev.wildo/approvalId': id } }),
        { 'MCP-Protocol-Version': '2025-11-25', Authorization: auth },
      );
    expect(reasonOf((await retry()).body.result)).toBe('approval_pending');
    const decided = await stack.t.api
      .post(`/api/v1/approvals/${id}/decision`)
      .set(stack.people.member.auth)
      .send({ decision: 'approve' });
    expect(decided.status).toBe(200);
    expect((await retry()).body.result).toMatchObject({ isError: false, structuredContent: { refunded: 20 } });
    expect(refunds()).toBe(before + 1);
    expect(reasonOf((await retry()).body.result)).toBe('approval_invalid');
    expect(refunds()).toBe(before + 1);
  });
});
