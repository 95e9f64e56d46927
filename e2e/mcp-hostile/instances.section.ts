import { checkCountUnchanged } from '../support/expectations.js';
import { createTodo, listTodoIds, uniqueMarker } from '../support/fixtures.js';
import { callTool, mcpCall, structuredOf, toolNamesOf } from '../support/mcp-client.js';
import { McpCredential } from '../support/mcp-credentials.js';
import {
  checkRpcRefusal,
  checkToolControl,
  MCP_PATH,
  SUPPORT_PATH,
  type McpScenarioSection,
} from './scenario-context.js';

/**
 * N: audiences and named instances. A delegated token works at the endpoint it was issued for only (`/mcp` vs
 * `/mcp/support`, and a first-party REST token at neither); `todos__stats` and the knowledge tools live on the
 * `support` instance only (absent from `/mcp` and not callable there, and `/mcp/support` serves none of the
 * default tools); an unknown instance is 404, never the default catalogue.
 */
export const instancesSection: McpScenarioSection = {
  title: 'N: audience-bound tokens and named instances',
  async run({ client, recorder, world, refused }) {
    const { a } = world;
    const inA = { organizationId: a.organizationId };
    const todo = await createTodo(client, a.admin, a.organizationId, { title: uniqueMarker('N todo') });
    const marker = uniqueMarker('wrong audience write');
    const countBefore = (await listTodoIds(client, a.admin, a.organizationId)).length;

    // /mcp token: accepted at /mcp, refused at /mcp/support.
    const defaultList = await mcpCall(client, MCP_PATH, 'tools/list', {}, { credential: a.mcpToken });
    const defaultTools = toolNamesOf(defaultList);
    recorder.check(
      'N-0 CONTROL the /mcp token lists the default catalogue at /mcp',
      defaultList.http.status === 200 && defaultTools.includes('todos__read'),
      `status ${defaultList.http.status}`,
    );
    const defaultCall = await callTool(
      client,
      MCP_PATH,
      'todos__read',
      { todoId: todo._id, ...inA },
      { credential: a.mcpToken },
    );
    checkToolControl(
      recorder,
      'N-0 CONTROL the /mcp token calls todos__read at /mcp',
      defaultCall,
      structuredOf(defaultCall)?._id === todo._id,
    );
    const mcpAtSupport = await refused('N-1 /mcp token at /mcp/support', () =>
      mcpCall(client, SUPPORT_PATH, 'tools/list', {}, { credential: a.mcpToken }),
    );
    checkRpcRefusal(recorder, 'N-1 a token for /mcp is refused at /mcp/support (tools/list, 401)', mcpAtSupport, {
      status: 401,
      code: -32001,
      challenge: `oauth-protected-resource${SUPPORT_PATH}"`,
    });
    const mcpAtSupportCall = await refused('N-1 /mcp token calls at /mcp/support', () =>
      callTool(client, SUPPORT_PATH, 'todos__stats', inA, { credential: a.mcpToken }),
    );
    checkRpcRefusal(
      recorder,
      'N-1 a token for /mcp is refused at /mcp/support (tools/call todos__stats, 401)',
      mcpAtSupportCall,
      { status: 401, code: -32001 },
    );

    // /mcp/support token: accepted there, refused at /mcp.
    const supportList = await mcpCall(client, SUPPORT_PATH, 'tools/list', {}, { credential: a.supportToken });
    const supportTools = toolNamesOf(supportList);
    recorder.check(
      'N-2 CONTROL the /mcp/support token lists todos__stats and the knowledge tools at /mcp/support',
      supportList.http.status === 200 &&
        ['todos__stats', 'knowledge-documents__read', 'knowledge-documents__search'].every((name) =>
          supportTools.includes(name),
        ),
      `status ${supportList.http.status}, tools: ${supportTools.join(', ')}`,
    );
    const stats = await callTool(client, SUPPORT_PATH, 'todos__stats', inA, { credential: a.supportToken });
    checkToolControl(
      recorder,
      'N-2 CONTROL the /mcp/support token calls todos__stats at /mcp/support',
      stats,
      typeof structuredOf(stats)?.total === 'number',
    );
    const supportAtMcp = await refused('N-3 /mcp/support token at /mcp', () =>
      mcpCall(client, MCP_PATH, 'tools/list', {}, { credential: a.supportToken }),
    );
    checkRpcRefusal(recorder, 'N-3 a token for /mcp/support is refused at /mcp (tools/list, 401)', supportAtMcp, {
      status: 401,
      code: -32001,
      challenge: `oauth-protected-resource${MCP_PATH}"`,
    });
    const supportAtMcpWrite = await refused('N-3 /mcp/support token writes at /mcp', () =>
      callTool(client, MCP_PATH, 'todos__create', { ...inA, title: marker }, { credential: a.supportToken }),
    );
    checkRpcRefusal(
      recorder,
      'N-3 a token for /mcp/support is refused at /mcp (tools/call todos__create, 401)',
      supportAtMcpWrite,
      { status: 401, code: -32001, mustNotDisclose: [marker] },
    );

    // A first-party token (audience: the REST API) is no MCP credential.
    const firstParty = new McpCredential('first-party token', 'bearer', a.admin.token);
    for (const path of [MCP_PATH, SUPPORT_PATH]) {
      const answer = await refused(`N-4 first-party token at ${path}`, () =>
        callTool(client, path, 'todos__create', { ...inA, title: marker }, { credential: firstParty }),
      );
      checkRpcRefusal(recorder, `N-4 the REST API’s first-party token is refused at ${path} (401)`, answer, {
        status: 401,
        code: -32001,
        mustNotDisclose: [marker],
      });
    }

    // Catalogue placement: todos__stats moved to `support` is absent from /mcp and not callable there.
    const keyAtSupport = await mcpCall(client, SUPPORT_PATH, 'tools/list', {}, { credential: a.apiKey });
    recorder.check(
      'N-5 CONTROL an API key (not audience-bound) lists todos__stats at /mcp/support',
      toolNamesOf(keyAtSupport).includes('todos__stats'),
      `status ${keyAtSupport.http.status}`,
    );
    const keyStats = await callTool(client, SUPPORT_PATH, 'todos__stats', inA, { credential: a.apiKey });
    checkToolControl(
      recorder,
      'N-5 CONTROL an API key calls todos__stats at /mcp/support',
      keyStats,
      typeof structuredOf(keyStats)?.total === 'number',
    );
    const keyAtDefault = toolNamesOf(await mcpCall(client, MCP_PATH, 'tools/list', {}, { credential: a.apiKey }));
    for (const [label, names] of [
      ['a delegated token', defaultTools],
      ['an API key', keyAtDefault],
    ] as const) {
      const misplaced = ['todos__stats', 'knowledge-documents__read', 'knowledge-documents__search'].filter((name) =>
        names.includes(name),
      );
      recorder.check(
        `N-6 /mcp does not list the support instance’s tools (${label})`,
        names.length > 0 && misplaced.length === 0,
        `listed: ${misplaced.join(', ')}`,
      );
    }
    const absentDefault = ['todos__read', 'todos__create', 'todos__list', 'todos__delete'].filter((name) =>
      supportTools.includes(name),
    );
    recorder.check(
      'N-6 /mcp/support does not list the default catalogue’s tools',
      supportTools.length > 0 && absentDefault.length === 0,
      `listed: ${absentDefault.join(', ')}`,
    );
    for (const [credentialLabel, credential] of [
      ['delegated token', a.mcpToken],
      ['API key', a.apiKey],
    ] as const) {
      const call = await refused(`N-7 todos__stats at /mcp (${credentialLabel})`, () =>
        callTool(client, MCP_PATH, 'todos__stats', inA, { credential }),
      );
      checkRpcRefusal(recorder, `N-7 todos__stats is not callable at /mcp: unknown tool (${credentialLabel})`, call, {
        status: 200,
        code: -32602,
      });
    }
    const knowledge = await refused('N-7 knowledge-documents__search at /mcp', () =>
      callTool(client, MCP_PATH, 'knowledge-documents__search', { ...inA, query: 'x' }, { credential: a.apiKey }),
    );
    checkRpcRefusal(recorder, 'N-7 knowledge-documents__search is not callable at /mcp: unknown tool', knowledge, {
      status: 200,
      code: -32602,
    });
    const defaultAtSupport = await refused('N-8 todos__create at /mcp/support', () =>
      callTool(client, SUPPORT_PATH, 'todos__create', { ...inA, title: marker }, { credential: a.supportToken }),
    );
    checkRpcRefusal(recorder, 'N-8 todos__create is not callable at /mcp/support: unknown tool', defaultAtSupport, {
      status: 200,
      code: -32602,
      mustNotDisclose: [marker],
    });
    const unknownInstance = await refused('N-9 unknown instance', () =>
      mcpCall(client, `${MCP_PATH}/no-such-instance`, 'tools/list', {}, { credential: a.apiKey }),
    );
    checkRpcRefusal(
      recorder,
      'N-9 an unknown instance (/mcp/no-such-instance) is 404, not the default catalogue',
      unknownInstance,
      { status: 404 },
    );

    checkCountUnchanged(
      recorder,
      'N-10 no todo was created by the refused writes',
      countBefore,
      (await listTodoIds(client, a.admin, a.organizationId)).length,
    );
  },
};
