import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectUnstorableRefusal } from '../../testing/hostile-text.fixtures.js';
import { createOrganization, signUp, TEST_PASSWORD, type TestUser } from '../../testing/identity.fixtures.js';
import {
  handshake,
  MCP_BACKEND_OPTIONS,
  MCP_PATH,
  organizationApiKey,
  rpc,
  spyOnServices,
  type ToolResult,
} from '../../testing/mcp.fixtures.js';
import { authorizationRequest, pkcePair, REDIRECT_URI, registerPublicClient } from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { referenceApplication } from '../../modules/index.js';
import { defineBackendApplication } from '../bootstrap/backend-domain-module.js';
import { GOVERNANCE_META, RPC_ERRORS } from '../mcp/mcp-protocol.js';
import type { McpCustomTool } from '../mcp/mcp-tools.types.js';
import { STORABLE_TEXT_EXPECTATION } from '../resources/schema/index.js';

/**
 * Each crash reported for text the database cannot store (NUL, lone surrogates), beside its positive control: the
 * same request with storable text succeeds. One backend serves the file.
 */
const database = useTestDatabase();

/** Every argument object the custom tool below was called with. */
const echoCalls: Record<string, unknown>[] = [];

/** A tool a module contributes directly: its arguments never pass a resource contract. */
const echoTool: McpCustomTool = {
  descriptor: {
    name: 'probe__echo',
    description: 'Echoes its text.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  async call(args) {
    echoCalls.push(args);
    return { content: [{ type: 'text', text: 'echoed' }], isError: false };
  },
};

const application = defineBackendApplication({
  ...referenceApplication,
  modules: [...referenceApplication.modules, { name: 'text-probes', mcpTools: [echoTool] }],
});
let t: TestBackend;
let owner: TestUser;
let orgId: string;
let todos: string;

beforeAll(async () => {
  t = await createTestBackend(database(), { ...MCP_BACKEND_OPTIONS, application });
  owner = await signUp(t.api, 'owner');
  orgId = await createOrganization(t.api, owner, 'Regressions');
  todos = `/api/v1/organizations/${orgId}/todos`;
});
afterAll(async () => {
  await t?.close();
});

const countTodos = async () => ((await t.api.get(`${todos}?limit=100`).set(owner.auth)).body.data as unknown[]).length;

describe('REST', () => {
  it('stores a body field with storable text (control), refuses NUL and lone surrogates there, storing nothing', async () => {
    expect((await t.api.post(todos).set(owner.auth).send({ title: 'Plan 🗓️ e\u0301' })).status).toBe(201);
    const before = await countTodos();
    for (const title of ['Plan \u0000 B', 'Plan \ud800 B', 'Plan \udc00 B'])
      expectUnstorableRefusal(await t.api.post(todos).set(owner.auth).send({ title }), 'title', title);
    expectUnstorableRefusal(
      await t.api
        .post(todos)
        .set(owner.auth)
        .send({ title: 'ok', checklist: [{ label: 'x\u0000', done: false }] }),
      'checklist[0].label',
      'x\u0000',
    );
    expect(await countTodos()).toBe(before);
  });

  it('reports a body key holding unstorable text at its parent, without repeating it', async () => {
    const res = await t.api
      .post(todos)
      .set(owner.auth)
      .send({ title: 'ok', ['key\u0000secret']: 1 });
    expectUnstorableRefusal(res, '(root)', 'key\u0000secret');
  });

  it('filters with storable text (control) and refuses a NUL in a filter, a cursor or a parameter name', async () => {
    expect((await t.api.get(`${todos}?assignee=someone%20%F0%9F%98%80`).set(owner.auth)).status).toBe(200);
    expectUnstorableRefusal(
      await t.api.get(`${todos}?assignee=some%00one`).set(owner.auth),
      'assignee',
      'some\u0000one',
    );
    expectUnstorableRefusal(await t.api.get(`${todos}?cursor=abc%00def`).set(owner.auth), 'cursor', 'abc\u0000def');
    expectUnstorableRefusal(await t.api.get(`${todos}?bad%00name=1`).set(owner.auth), '(query)', 'bad\u0000name');
    expectUnstorableRefusal(
      await t.api.get('/api/v1/flows-actors/approvals?executionId=%00').set(owner.auth),
      'executionId',
      '\u0000',
    );
  });

  it('reads through a storable path (control) and refuses a NUL in a path segment before any route runs', async () => {
    expect((await t.api.get(todos).set(owner.auth)).status).toBe(200);
    expectUnstorableRefusal(
      await t.api.get(`/api/v1/organizations/${orgId}%00/todos`).set(owner.auth),
      '(path)',
      `${orgId}\u0000`,
    );
    expectUnstorableRefusal(
      await t.api.get('/api/v1/flows-actors/executions/abc%00def/messages').set(owner.auth),
      '(path)',
      'abc\u0000def',
    );
  });

  it('creates an organization with a storable name (control) and refuses NUL and lone surrogates in it', async () => {
    expect((await t.api.post('/api/v1/organizations').set(owner.auth).send({ name: 'Ünïcode 🦄 ‏RTL' })).status).toBe(
      201,
    );
    for (const name of ['Acme\u0000', 'Acme\ud800', '\udc00Acme'])
      expectUnstorableRefusal(await t.api.post('/api/v1/organizations').set(owner.auth).send({ name }), 'name', name);
  });

  it('signs in (control) and refuses an unauthenticated sign-in with unstorable text', async () => {
    expect((await t.api.post('/api/v1/auth/login').send({ email: owner.email, password: TEST_PASSWORD })).status).toBe(
      200,
    );
    expectUnstorableRefusal(
      await t.api.post('/api/v1/auth/login').send({ email: `${owner.email}\u0000`, password: TEST_PASSWORD }),
      'email',
      `${owner.email}\u0000`,
    );
    expectUnstorableRefusal(
      await t.api.post('/api/v1/auth/login').send({ email: owner.email, password: 'wrong\ud800password' }),
      'password',
      'wrong\ud800password',
    );
  });

  it('signs up (control) and refuses an unauthenticated sign-up with unstorable text', async () => {
    await signUp(t.api, 'control');
    expectUnstorableRefusal(
      await t.api.post('/api/v1/auth/signup').send({ email: 'nul\u0000@example.test', password: TEST_PASSWORD }),
      'email',
      'nul\u0000@example.test',
    );
    expectUnstorableRefusal(
      await t.api
        .post('/api/v1/auth/signup')
        .send({ email: 'x@example.test', password: TEST_PASSWORD, displayName: 'Ann \udbff' }),
      'displayName',
      'Ann \udbff',
    );
  });
});

describe('MCP', () => {
  let apiKey: string;
  beforeAll(async () => {
    apiKey = await organizationApiKey(t.api, owner, orgId, ['ORG_ADMIN']);
  });

  const call = (args: Record<string, unknown>) =>
    handshake(t.api, MCP_PATH, rpc('tools/call', { name: 'todos__create', arguments: args }), apiKey);

  it('creates through a tool with storable text (control), refuses unstorable arguments as an input_invalid result, dispatching nothing', async () => {
    expect(((await call({ title: 'Tool 😀' })).body.result as ToolResult).isError).toBe(false);
    const services = spyOnServices(t);
    for (const [args, path] of [
      [{ title: 'Tool \ud800' }, 'title'],
      [{ title: 'ok', checklist: [{ label: '\u0000', done: true }] }, 'checklist[0].label'],
      [{ title: 'ok', organizationId: `${orgId}\u0000` }, 'organizationId'],
    ] as const) {
      const res = await call(args);
      expect(res.status).toBe(200);
      const result = res.body.result as ToolResult;
      expect(result.isError).toBe(true);
      expect(result._meta?.[GOVERNANCE_META.INPUT_INVALID]).toEqual({
        error: 'input_invalid',
        tool: 'todos__create',
        reason: 'input_invalid',
        problems: [{ path, expected: STORABLE_TEXT_EXPECTATION }],
      });
    }
    expect(services.count()).toBe(0);
  });

  it('runs a module’s own tool with storable arguments (control) and refuses unstorable ones before it runs', async () => {
    const echo = (text: string) =>
      handshake(t.api, MCP_PATH, rpc('tools/call', { name: 'probe__echo', arguments: { text } }), apiKey);
    expect(((await echo('hello 😀')).body.result as ToolResult).isError).toBe(false);
    expect(echoCalls).toEqual([{ text: 'hello 😀' }]);
    const result = (await echo('hello \u0000')).body.result as ToolResult;
    expect(result._meta?.[GOVERNANCE_META.INPUT_INVALID]).toMatchObject({
      reason: 'input_invalid',
      problems: [{ path: 'text', expected: STORABLE_TEXT_EXPECTATION }],
    });
    expect(echoCalls).toHaveLength(1);
  });

  it('answers a well-formed envelope (control) and refuses unstorable text elsewhere in it as a JSON-RPC error', async () => {
    expect((await handshake(t.api, MCP_PATH, rpc('tools/list'), apiKey)).body.result.tools.length).toBeGreaterThan(0);
    const badMethod = await handshake(t.api, MCP_PATH, rpc('tools/list\u0000'), apiKey);
    expect(badMethod.status).toBe(400);
    expect(badMethod.body.error).toMatchObject({
      code: RPC_ERRORS.INVALID_REQUEST,
      data: { reason: 'input_invalid', problems: [{ path: 'method', expected: STORABLE_TEXT_EXPECTATION }] },
    });
    const badName = await handshake(
      t.api,
      MCP_PATH,
      rpc('tools/call', { name: 'todos__create\ud800', arguments: {} }),
      apiKey,
    );
    expect(badName.status).toBe(400);
    expect(badName.body.error).toMatchObject({
      code: RPC_ERRORS.INVALID_PARAMS,
      data: { problems: [{ path: 'params.name' }] },
    });
    const badId = await handshake(t.api, MCP_PATH, rpc('tools/list', undefined, 'id\udc00'), apiKey);
    expect(badId.body).toMatchObject({ id: null, error: { code: RPC_ERRORS.INVALID_REQUEST } });
  });
});

describe('OAuth', () => {
  it('authenticates a client at the token endpoint (control) and refuses unstorable form parameters as invalid_request', async () => {
    const unknown = await t.api
      .post('/api/v1/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: 'no-such-client', client_secret: 's' });
    expect(unknown.body).toMatchObject({ error: 'invalid_client' });
    const res = await t.api
      .post('/api/v1/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: 'no\u0000such', client_secret: 's' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      error_description: `The client_id parameter must be ${STORABLE_TEXT_EXPECTATION}.`,
    });
  });

  it('refuses Basic client credentials that decode to a NUL as malformed, like any malformed credentials', async () => {
    const basic = (credentials: string) => ({ Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });
    const control = await t.api
      .post('/api/v1/oauth/token')
      .set(basic('no-such-client:secret'))
      .type('form')
      .send({ grant_type: 'client_credentials' });
    expect(control.body).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed.' });
    const res = await t.api
      .post('/api/v1/oauth/token')
      .set(basic('no\u0000such:secret'))
      .type('form')
      .send({ grant_type: 'client_credentials' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_client', error_description: 'Malformed client credentials.' });
  });

  it('registers a client (control) and refuses unstorable metadata as invalid_client_metadata', async () => {
    await registerPublicClient(t.api);
    const res = await t.api
      .post('/api/v1/oauth/register')
      .send({ client_name: 'Tool \ud800', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_client_metadata',
      error_description: `The client_name parameter must be ${STORABLE_TEXT_EXPECTATION}.`,
    });
  });

  it('starts an authorization (control) and refuses an unstorable parameter of the consent page’s request', async () => {
    const clientId = await registerPublicClient(t.api);
    const request = authorizationRequest(clientId, pkcePair().challenge);
    expect((await t.api.post('/api/v1/oauth/authorize').set(owner.auth).send(request)).status).toBe(200);
    expectUnstorableRefusal(
      await t.api
        .post('/api/v1/oauth/authorize')
        .set(owner.auth)
        .send({ ...request, state: 'st\u0000ate' }),
      'state',
      'st\u0000ate',
    );
  });
});

/** Sends one raw HTTP/1.1 request and returns the status line. */
async function rawStatusLine(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.end(`${head}\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
    );
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''));
  });
}

describe('headers', () => {
  it('never let a NUL reach SQL: the HTTP parser refuses it in Authorization, x-reauth-token and If-Match (400)', async () => {
    const { url } = await t.backend.listen(0);
    const port = Number(new URL(url).port);
    const get = `GET /api/v1/organizations/${orgId}/todos HTTP/1.1`;
    expect(await rawStatusLine(port, `${get}\r\nAuthorization: Bearer ${owner.token}`)).toBe('HTTP/1.1 200 OK');
    for (const header of [
      `Authorization: Bearer ${owner.token}\u0000`,
      'x-reauth-token: ra_\u0000',
      'If-Match: "1\u0000"',
    ]) {
      expect(await rawStatusLine(port, `${get}\r\n${header}`), header.split(':')[0]).toBe('HTTP/1.1 400 Bad Request');
    }
  });
});
