import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkRpcRefusal, checkToolControl, checkToolRefusal } from '../mcp-hostile/scenario-context.js';
import { BearerToken } from './bearer-token.js';
import { createCheckRecorder } from './check-recorder.js';
import type { HttpResult } from './http-client.js';
import { mcpRequest, refusalOf, type McpExchange } from './mcp-client.js';
import { McpCredential } from './mcp-credentials.js';

// The MCP scenario is only as good as its ability to fail: these prove its helpers notice what they look for.

function exchange(
  status: number,
  message: { result?: Record<string, unknown>; error?: { code: number; message: string } },
  headers: Record<string, string> = {},
): McpExchange {
  const text = JSON.stringify({ jsonrpc: '2.0', id: 1, ...message });
  const http: HttpResult = { status, headers: new Headers(headers), body: JSON.parse(text) as unknown, text };
  return { http, ...message };
}

const refusal = (key: string, meta: Record<string, unknown>, text = 'refused') =>
  exchange(200, { result: { isError: true, content: [{ type: 'text', text }], _meta: { [key]: meta } } });

describe('MCP check helpers', () => {
  const recorder = () => createCheckRecorder(() => undefined);

  it('accept the expected governed refusal and name what differs otherwise', () => {
    const r = recorder();
    const denied = refusal('dev.wildo/policy_denied', {
      error: 'policy_denied',
      tool: 'todos__delete',
      reason: 'role_refused',
    });
    expect(checkToolRefusal(r, 'ok', denied, { key: 'dev.wildo/policy_denied', reason: 'role_refused' })).toBe(true);
    expect(
      checkToolRefusal(r, 'wrong reason', denied, { key: 'dev.wildo/policy_denied', reason: 'rate_limit_exceeded' }),
    ).toBe(false);
    expect(checkToolRefusal(r, 'wrong key', denied, { key: 'dev.wildo/input_invalid' })).toBe(false);
    const success = exchange(200, { result: { content: [], structuredContent: { _id: 'x' } } });
    expect(checkToolRefusal(r, 'a success is no refusal', success, { key: 'dev.wildo/policy_denied' })).toBe(false);
    expect(r.results.filter((c) => !c.passed).map((c) => c.detail)).toEqual([
      expect.stringContaining('expected reason rate_limit_exceeded'),
      expect.stringContaining('expected _meta dev.wildo/input_invalid'),
      expect.stringContaining('expected an isError result'),
    ]);
  });

  it('notice a disclosed value in a refusal', () => {
    const leaky = refusal('dev.wildo/input_invalid', {
      reason: 'input_invalid',
      problems: [{ path: 'undeclaredKey_1', expected: 'never' }],
    });
    expect(
      checkToolRefusal(recorder(), 'leak', leaky, {
        key: 'dev.wildo/input_invalid',
        mustNotDisclose: ['undeclaredKey_1'],
      }),
    ).toBe(false);
  });

  it('require status, JSON-RPC code and challenge of a transport refusal', () => {
    const r = recorder();
    const unauthorized = exchange(
      401,
      { error: { code: -32001, message: 'Authentication required.' } },
      { 'www-authenticate': 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource/api/v1/mcp"' },
    );
    expect(
      checkRpcRefusal(r, 'ok', unauthorized, {
        status: 401,
        code: -32001,
        challenge: 'oauth-protected-resource/api/v1/mcp"',
      }),
    ).toBe(true);
    expect(
      checkRpcRefusal(r, 'other endpoint', unauthorized, {
        status: 401,
        challenge: 'oauth-protected-resource/api/v1/mcp/support"',
      }),
    ).toBe(false);
    expect(checkRpcRefusal(r, 'other code', unauthorized, { status: 401, code: -32020 })).toBe(false);
    expect(
      checkRpcRefusal(r, 'a result is no refusal', exchange(200, { result: { tools: [] } }), { status: 200 }),
    ).toBe(false);
  });

  it('treat an isError result as a failed control', () => {
    expect(checkToolControl(recorder(), 'control', refusal('dev.wildo/tool_error', { error: 'not_found' }))).toBe(
      false,
    );
    expect(refusalOf(exchange(200, { result: { isError: true, content: [] } }))).toEqual({ key: '(none)' });
  });
});

describe('MCP requests', () => {
  it('mirror the body in the stateless headers, and let a probe override or drop them', () => {
    const { headers, body } = mcpRequest('tools/call', { name: 'todos__read', arguments: {} });
    expect(headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'todos__read',
    });
    expect((body.params as { _meta: Record<string, unknown> })._meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    const probe = mcpRequest(
      'tools/call',
      { name: 'todos__read' },
      { headerOverrides: { 'Mcp-Name': 'other', 'mcp-method': null } },
    );
    expect(probe.headers['mcp-name']).toBe('other');
    expect(probe.headers['mcp-method']).toBeUndefined();
    const handshake = mcpRequest('tools/list', {}, { revision: '2025-11-25' });
    expect(handshake.headers['mcp-method']).toBeUndefined();
    expect((handshake.body.params as Record<string, unknown>)._meta).toBeUndefined();
  });

  it('never print a credential', () => {
    const credential = new McpCredential('key', 'api-key', new BearerToken('sk_org_secretsecret'));
    for (const shown of [String(credential), JSON.stringify({ credential }), inspect({ credential })])
      expect(shown).not.toContain('secretsecret');
    expect(credential.header()).toBe('sk_org_secretsecret');
    expect(new McpCredential('t', 'bearer', new BearerToken('abc')).header()).toBe('Bearer abc');
  });
});
