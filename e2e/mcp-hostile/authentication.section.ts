import { BearerToken } from '../support/bearer-token.js';
import { createTodo, listTodoIds, uniqueMarker } from '../support/fixtures.js';
import { callTool, HANDSHAKE_REVISION, mcpCall, toolNamesOf } from '../support/mcp-client.js';
import { McpCredential } from '../support/mcp-credentials.js';
import { checkCountUnchanged } from '../support/expectations.js';
import {
  checkRpcRefusal,
  checkToolControl,
  MCP_PATH,
  SUPPORT_PATH,
  type McpScenarioSection,
} from './scenario-context.js';

const METADATA = '/.well-known/oauth-protected-resource';

/**
 * A: credentials. Initialization and discovery are public; `tools/list` and `tools/call` without a credential,
 * with a forged token or with a first-party (REST) token are HTTP 401 with an RFC 9728 challenge naming the
 * addressed endpoint's metadata (the `no_credential` refusal stays an authentication signal), and a refused
 * write stores nothing.
 */
export const authenticationSection: McpScenarioSection = {
  title: 'A: no credential, forged and foreign credentials (HTTP 401)',
  async run({ client, recorder, world, refused }) {
    const { a } = world;
    const initialize = await mcpCall(
      client,
      MCP_PATH,
      'initialize',
      { protocolVersion: HANDSHAKE_REVISION, capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
      { revision: HANDSHAKE_REVISION },
    );
    recorder.check(
      'A-0 CONTROL initialize is public (no credential)',
      initialize.http.status === 200 && initialize.result?.protocolVersion === HANDSHAKE_REVISION,
      `status ${initialize.http.status}`,
    );
    const discover = await mcpCall(client, MCP_PATH, 'server/discover');
    recorder.check(
      'A-0 CONTROL server/discover is public (no credential)',
      discover.http.status === 200 && Array.isArray(discover.result?.supportedVersions),
      `status ${discover.http.status}`,
    );
    const listed = await mcpCall(client, MCP_PATH, 'tools/list', {}, { credential: a.apiKey });
    recorder.check(
      'A-0 CONTROL tools/list with an API key answers the catalogue',
      listed.http.status === 200 && toolNamesOf(listed).includes('todos__read'),
      `status ${listed.http.status}`,
    );
    const seed = await createTodo(client, a.admin, a.organizationId, { title: uniqueMarker('A auth control') });
    const read = await callTool(
      client,
      MCP_PATH,
      'todos__read',
      { todoId: seed._id, organizationId: a.organizationId },
      { credential: a.mcpToken },
    );
    checkToolControl(
      recorder,
      'A-0 CONTROL tools/call with a delegated token reads the todo',
      read,
      read.result?.structuredContent !== undefined,
    );

    const countBefore = (await listTodoIds(client, a.admin, a.organizationId)).length;
    const marker = uniqueMarker('unauthenticated write');
    for (const [revision, suffix] of [
      [undefined, '2026-07-28'],
      [HANDSHAKE_REVISION, HANDSHAKE_REVISION],
    ] as const) {
      const options = revision ? { revision } : {};
      const list = await refused(`A-1 tools/list without a credential (${suffix})`, () =>
        mcpCall(client, MCP_PATH, 'tools/list', {}, options),
      );
      checkRpcRefusal(
        recorder,
        `A-1 tools/list without a credential is 401 with the /mcp metadata challenge (${suffix})`,
        list,
        { status: 401, code: -32001, challenge: `resource_metadata="` },
      );
      recorder.check(
        `A-1 the challenge names ${METADATA}/api/v1/mcp (${suffix})`,
        (list.http.headers.get('www-authenticate') ?? '').includes(`${METADATA}${MCP_PATH}"`),
        list.http.headers.get('www-authenticate') ?? 'none',
      );
      const call = await refused(`A-2 tools/call without a credential (${suffix})`, () =>
        callTool(client, MCP_PATH, 'todos__create', { organizationId: a.organizationId, title: marker }, options),
      );
      checkRpcRefusal(recorder, `A-2 tools/call todos__create without a credential is 401 (${suffix})`, call, {
        status: 401,
        code: -32001,
        challenge: `${METADATA}${MCP_PATH}"`,
        mustNotDisclose: [marker],
      });
    }
    const support = await refused('A-3 tools/list on /mcp/support without a credential', () =>
      mcpCall(client, SUPPORT_PATH, 'tools/list'),
    );
    checkRpcRefusal(recorder, 'A-3 /mcp/support without a credential is 401 with its own metadata challenge', support, {
      status: 401,
      code: -32001,
      challenge: `${METADATA}${SUPPORT_PATH}"`,
    });

    const token = a.mcpToken.token();
    if (token) {
      const forgeries: [string, McpCredential][] = [
        ['a broken signature', new McpCredential('forged', 'bearer', token.withBrokenSignature())],
        ['an unsigned token (alg none)', new McpCredential('unsigned', 'bearer', token.asUnsigned())],
        [
          'a rewritten subject',
          new McpCredential(
            'rewritten',
            'bearer',
            token.withPayload((claims) => ({ ...claims, sub: world.b.admin.userId })),
          ),
        ],
      ];
      for (const [what, credential] of forgeries) {
        const call = await refused(`A-4 ${what}`, () =>
          callTool(
            client,
            MCP_PATH,
            'todos__create',
            { organizationId: a.organizationId, title: marker },
            { credential },
          ),
        );
        checkRpcRefusal(recorder, `A-4 a delegated token with ${what} is 401 invalid_token`, call, {
          status: 401,
          code: -32001,
          challenge: 'error="invalid_token"',
          mustNotDisclose: [marker],
        });
      }
    }
    const garbage = await refused('A-5 a non-token Authorization value', () =>
      callTool(
        client,
        MCP_PATH,
        'todos__create',
        { organizationId: a.organizationId, title: marker },
        { credential: new McpCredential('basic', 'api-key', new BearerToken('Basic Zm9vOmJhcg==')) },
      ),
    );
    checkRpcRefusal(recorder, 'A-5 a Basic credential is 401', garbage, { status: 401, code: -32001 });
    checkCountUnchanged(
      recorder,
      'A-6 no todo was created by the refused writes',
      countBefore,
      (await listTodoIds(client, a.admin, a.organizationId)).length,
    );
  },
};
