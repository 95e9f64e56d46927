import { checkCountUnchanged } from '../support/expectations.js';
import { listTodoIds, uniqueMarker } from '../support/fixtures.js';
import { callTool, STATELESS_REVISION, structuredOf, type McpRequestOptions } from '../support/mcp-client.js';
import { checkRpcRefusal, checkToolControl, MCP_PATH, type McpScenarioSection } from './scenario-context.js';

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/**
 * H: stateless (2026-07-28) requests whose headers do not mirror their body. Each probe is a `tools/call` of
 * `todos__create` with a unique title by a valid credential: it must be refused with HTTP 400 and the JSON-RPC
 * error of the rule (header mismatch -32020, invalid params -32602, unsupported version -32022) before
 * authentication and dispatch, so nothing is created.
 */
export const headerMismatchSection: McpScenarioSection = {
  title: 'H: header/body mismatches on stateless requests',
  async run({ client, recorder, world, refused }) {
    const { a } = world;
    const inA = { organizationId: a.organizationId };
    const control = await callTool(
      client,
      MCP_PATH,
      'todos__create',
      { ...inA, title: uniqueMarker('H control') },
      { credential: a.apiKey },
    );
    checkToolControl(
      recorder,
      'H-0 CONTROL a well-formed stateless todos__create succeeds',
      control,
      typeof structuredOf(control)?._id === 'string',
    );
    const trimmed = await callTool(
      client,
      MCP_PATH,
      'todos__list',
      { ...inA, limit: 1 },
      { credential: a.apiKey, headerOverrides: { 'mcp-name': '  todos__list  ', 'mcp-method': ' tools/call ' } },
    );
    checkToolControl(recorder, 'H-0 CONTROL header values are compared without surrounding whitespace', trimmed);
    const countBefore = (await listTodoIds(client, a.admin, a.organizationId)).length;

    const probes: [string, number, McpRequestOptions][] = [
      ['Mcp-Method names another method (tools/list)', -32020, { headerOverrides: { 'mcp-method': 'tools/list' } }],
      ['Mcp-Method is missing', -32020, { headerOverrides: { 'mcp-method': null } }],
      ['Mcp-Method differs in case (TOOLS/CALL)', -32020, { headerOverrides: { 'mcp-method': 'TOOLS/CALL' } }],
      ['Mcp-Name names another tool (todos__read)', -32020, { headerOverrides: { 'mcp-name': 'todos__read' } }],
      ['Mcp-Name is missing', -32020, { headerOverrides: { 'mcp-name': null } }],
      [
        'MCP-Protocol-Version names a handshake revision (2025-11-25)',
        -32020,
        { headerOverrides: { 'mcp-protocol-version': '2025-11-25' } },
      ],
      ['MCP-Protocol-Version is missing', -32020, { headerOverrides: { 'mcp-protocol-version': null } }],
      ['_meta lacks the client capabilities', -32602, { meta: { [META_VERSION]: STATELESS_REVISION } }],
      [
        'header and _meta name an unsupported revision (2099-01-01)',
        -32022,
        {
          headerOverrides: { 'mcp-protocol-version': '2099-01-01' },
          meta: { [META_VERSION]: '2099-01-01', [META_CAPABILITIES]: {} },
        },
      ],
    ];
    const markers: string[] = [];
    for (const [index, [what, code, options]] of probes.entries()) {
      const marker = uniqueMarker(`header probe ${index + 1}`);
      markers.push(marker);
      const label = `H-${index + 1} ${what}: 400 with ${code}`;
      const answer = await refused(label, () =>
        callTool(client, MCP_PATH, 'todos__create', { ...inA, title: marker }, { credential: a.apiKey, ...options }),
      );
      checkRpcRefusal(recorder, label, answer, { status: 400, code, mustNotDisclose: [marker] });
    }
    checkCountUnchanged(
      recorder,
      `H-${probes.length + 1} none of the refused creates stored a todo`,
      countBefore,
      (await listTodoIds(client, a.admin, a.organizationId)).length,
    );
  },
};
