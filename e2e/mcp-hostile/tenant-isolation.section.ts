import { checkCountUnchanged, checkUnchanged } from '../support/expectations.js';
import { createTodo, listTodoIds, readTodo, uniqueMarker } from '../support/fixtures.js';
import { callTool, HANDSHAKE_REVISION, structuredOf, type McpRequestOptions } from '../support/mcp-client.js';
import { disclosedAmong } from '../support/responses.js';
import { checkToolControl, checkToolRefusal, MCP_PATH, type McpScenarioSection } from './scenario-context.js';

const idsOf = (structured: Record<string, unknown> | undefined): string[] =>
  Array.isArray(structured?.data) ? (structured.data as { _id?: unknown }[]).map((record) => String(record._id)) : [];

/**
 * C: organization B against organization A's todo through `tools/call`. A's own calls come first (the positive
 * controls: read, list, search, update, complete, delete), then B's admin (delegated token, ORG_ADMIN, at
 * 2026-07-28) and B's API key (ORG_MEMBER, at 2025-11-25) try the same tools on A's todo, once in B's own
 * organization (the default) and once naming A's organization. Every attempt is a plain `not_found` tool error
 * that discloses nothing of the row; A's row reads back unchanged through REST and A's count does not move.
 */
export const tenantIsolationSection: McpScenarioSection = {
  title: 'C: tenant isolation through tools/call',
  async run({ client, recorder, world, refused }) {
    const { a, b } = world;
    const title = `A secret plan ${uniqueMarker('t')}`;
    const description = uniqueMarker('A private description');
    const target = await createTodo(client, a.admin, a.organizationId, { title, description, priority: 4 });
    const updateControl = await createTodo(client, a.admin, a.organizationId, {
      title: uniqueMarker('A update control'),
    });
    const completeControl = await createTodo(client, a.admin, a.organizationId, {
      title: uniqueMarker('A complete control'),
    });
    const deleteControl = await createTodo(client, a.admin, a.organizationId, {
      title: uniqueMarker('A delete control'),
    });
    const bOwn = await createTodo(client, b.admin, b.organizationId, { title: uniqueMarker('B own todo') });
    const foreign = [title, description];
    const inA = { organizationId: a.organizationId };

    // Positive controls: the same tools, by A on A's rows and by B on B's.
    const asA = { credential: a.mcpToken };
    const read = await callTool(client, MCP_PATH, 'todos__read', { todoId: target._id, ...inA }, asA);
    checkToolControl(
      recorder,
      'C-0 CONTROL org A CAN read its own todo through todos__read',
      read,
      structuredOf(read)?.title === title,
    );
    const list = await callTool(client, MCP_PATH, 'todos__list', { ...inA, limit: 100 }, asA);
    checkToolControl(
      recorder,
      'C-0 CONTROL org A CAN list its own todo through todos__list',
      list,
      idsOf(structuredOf(list)).includes(target._id),
    );
    const search = await callTool(client, MCP_PATH, 'todos__search', { ...inA, query: 'secret plan' }, asA);
    checkToolControl(
      recorder,
      'C-0 CONTROL org A CAN find its own todo through todos__search',
      search,
      idsOf(structuredOf(search)).includes(target._id),
    );
    const update = await callTool(
      client,
      MCP_PATH,
      'todos__update',
      { todoId: updateControl._id, ...inA, priority: 5 },
      asA,
    );
    checkToolControl(
      recorder,
      'C-0 CONTROL org A CAN update its own todo through todos__update',
      update,
      structuredOf(update)?.priority === 5,
    );
    const complete = await callTool(
      client,
      MCP_PATH,
      'todos__complete',
      { todoId: completeControl._id, ...inA, note: 'control' },
      asA,
    );
    checkToolControl(
      recorder,
      'C-0 CONTROL org A CAN complete its own todo through todos__complete',
      complete,
      structuredOf(complete)?.status === 'done',
    );
    const remove = await callTool(client, MCP_PATH, 'todos__delete', { todoId: deleteControl._id, ...inA }, asA);
    const gone = (await readTodo(client, a.admin, a.organizationId, deleteControl._id)) === undefined;
    checkToolControl(
      recorder,
      'C-0 CONTROL org A CAN delete its own todo through todos__delete (and it is gone)',
      remove,
      gone,
    );
    const bRead = await callTool(client, MCP_PATH, 'todos__read', { todoId: bOwn._id }, { credential: b.mcpToken });
    checkToolControl(
      recorder,
      'C-0 CONTROL org B CAN read its own todo (default organization)',
      bRead,
      structuredOf(bRead)?._id === bOwn._id,
    );
    const bKeyRead = await callTool(
      client,
      MCP_PATH,
      'todos__read',
      { todoId: bOwn._id },
      { credential: b.apiKey, revision: HANDSHAKE_REVISION },
    );
    checkToolControl(
      recorder,
      'C-0 CONTROL org B’s API key CAN read B’s todo (2025-11-25)',
      bKeyRead,
      structuredOf(bKeyRead)?._id === bOwn._id,
    );

    const snapshot = await readTodo(client, a.admin, a.organizationId, target._id);
    const countBefore = (await listTodoIds(client, a.admin, a.organizationId)).length;
    const pwned = uniqueMarker('pwned');
    const notFound = { key: 'dev.wildo/tool_error', error: 'not_found', mustNotDisclose: [...foreign, pwned] };

    const attackers: [string, McpRequestOptions][] = [
      ['B’s admin (delegated token, 2026-07-28)', { credential: b.mcpToken }],
      ['B’s API key (2025-11-25)', { credential: b.apiKey, revision: HANDSHAKE_REVISION }],
    ];
    for (const [who, as] of attackers) {
      // In B's own organization (the default): the lookup runs inside B's tenant and finds nothing.
      const readOwn = await callTool(client, MCP_PATH, 'todos__read', { todoId: target._id }, as);
      checkToolRefusal(recorder, `C-1 ${who} canNOT read A’s todo in B’s organization`, readOwn, notFound);
      const listOwn = await callTool(client, MCP_PATH, 'todos__list', { limit: 100 }, as);
      const listLeaks = disclosedAmong(listOwn.http, [...foreign, target._id]);
      recorder.check(
        `C-2 ${who}: B’s todos__list does not contain A’s todo`,
        structuredOf(listOwn) !== undefined && listLeaks.length === 0,
        `${listLeaks.length} leak(s)`,
      );
      const searchOwn = await callTool(client, MCP_PATH, 'todos__search', { query: 'secret plan' }, as);
      const searchLeaks = disclosedAmong(searchOwn.http, [...foreign, target._id]);
      recorder.check(
        `C-3 ${who}: B’s todos__search does not find A’s todo`,
        structuredOf(searchOwn) !== undefined && searchLeaks.length === 0,
        `${searchLeaks.length} leak(s)`,
      );
      const updateOwn = await callTool(client, MCP_PATH, 'todos__update', { todoId: target._id, title: pwned }, as);
      checkToolRefusal(recorder, `C-4 ${who} canNOT update A’s todo in B’s organization`, updateOwn, notFound);
      const completeOwn = await callTool(client, MCP_PATH, 'todos__complete', { todoId: target._id, note: pwned }, as);
      checkToolRefusal(recorder, `C-5 ${who} canNOT complete A’s todo in B’s organization`, completeOwn, notFound);
      if (as.credential === b.mcpToken) {
        // Only B's admin has DELETE's role; B's member key would be refused by role first.
        const deleteOwn = await callTool(client, MCP_PATH, 'todos__delete', { todoId: target._id }, as);
        checkToolRefusal(recorder, `C-6 ${who} canNOT delete A’s todo in B’s organization`, deleteOwn, notFound);
      }

      // Naming A's organization: B is not in it, so the context is refused before any service call.
      const calls: [string, string, Record<string, unknown>][] = [
        ['C-7', 'read', { todoId: target._id, ...inA }],
        ['C-8', 'list', { ...inA, limit: 100 }],
        ['C-9', 'search', { ...inA, query: 'secret plan' }],
        ['C-10', 'update', { todoId: target._id, ...inA, title: pwned }],
        ['C-11', 'complete', { todoId: target._id, ...inA, note: pwned }],
        ['C-12', 'delete', { todoId: target._id, ...inA }],
      ];
      for (const [id, operation, args] of calls) {
        const label = `${id} ${who} canNOT ${operation} through todos__${operation} naming A’s organization`;
        const answer = await refused(label, () => callTool(client, MCP_PATH, `todos__${operation}`, args, as));
        checkToolRefusal(recorder, label, answer, notFound);
      }
    }

    // The effect, read back by A through REST: the row is exactly as it was and nothing appeared or vanished.
    checkUnchanged(
      recorder,
      'C-13 A’s todo is unchanged afterwards (version and fields, read through REST)',
      snapshot,
      await readTodo(client, a.admin, a.organizationId, target._id),
    );
    checkCountUnchanged(
      recorder,
      'C-14 org A’s todo count is unchanged afterwards',
      countBefore,
      (await listTodoIds(client, a.admin, a.organizationId)).length,
    );
  },
};
