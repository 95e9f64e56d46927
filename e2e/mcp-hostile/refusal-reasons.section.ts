import { checkCountUnchanged, checkUnchanged } from '../support/expectations.js';
import { createTodo, listTodoIds, readTodo, uniqueMarker } from '../support/fixtures.js';
import { callTool, HANDSHAKE_REVISION, mcpCall, refusalOf, structuredOf, toolNamesOf } from '../support/mcp-client.js';
import {
  checkRpcRefusal,
  checkToolControl,
  checkToolRefusal,
  MCP_PATH,
  type McpScenarioSection,
} from './scenario-context.js';

/**
 * R: every refusal reason the runtime produces, each through the real runtime and after its positive control.
 * `input_invalid` (problems name paths and expectations only: an undeclared key by its name, never a submitted value),
 * `role_refused` (an ORG_MEMBER key and an ORG_MEMBER person deleting; the policy is not described), an unknown
 * tool (JSON-RPC -32602) and, in-process only, `principal_not_allowed` and `lifecycle_blocked` (the reference
 * application declares no retired tool and no tool an organization machine may not call).
 */
export const refusalReasonsSection: McpScenarioSection = {
  title: 'R: refusal reasons (input_invalid, role_refused, unknown tool, principal_not_allowed, lifecycle_blocked)',
  async run({ client, recorder, world, refused, options, note }) {
    const { a, memberA } = world;
    const inA = { organizationId: a.organizationId };

    // input_invalid
    const created = await callTool(
      client,
      MCP_PATH,
      'todos__create',
      { ...inA, title: uniqueMarker('R valid create') },
      { credential: a.apiKey },
    );
    checkToolControl(
      recorder,
      'R-1 CONTROL todos__create with valid arguments succeeds',
      created,
      typeof structuredOf(created)?._id === 'string',
    );
    const countBefore = (await listTodoIds(client, a.admin, a.organizationId)).length;
    const secretValue = uniqueMarker('submitted-secret-value');
    const undeclaredKey = `undeclaredKey_${uniqueMarker('k').replace(/-/g, '_')}`;
    const invalid = await refused('R-1 todos__create with invalid arguments', () =>
      callTool(
        client,
        MCP_PATH,
        'todos__create',
        { ...inA, title: 42, priority: secretValue, [undeclaredKey]: secretValue },
        { credential: a.apiKey },
      ),
    );
    checkToolRefusal(
      recorder,
      'R-1 invalid arguments are refused: dev.wildo/input_invalid, reason input_invalid',
      invalid,
      {
        key: 'dev.wildo/input_invalid',
        reason: 'input_invalid',
        error: 'input_invalid',
        mustNotDisclose: [secretValue],
      },
    );
    const problems = (refusalOf(invalid)?.problems ?? []) as { path?: unknown; expected?: unknown }[];
    recorder.check(
      'R-1 the undeclared argument is named by its path',
      problems.some((p) => p.path === undeclaredKey),
      JSON.stringify(problems.map((p) => p.expected)),
    );
    const wellFormed =
      Array.isArray(problems) &&
      problems.length >= 1 &&
      problems.length <= 16 &&
      problems.every(
        (p) => typeof p.path === 'string' && typeof p.expected === 'string' && Object.keys(p).length === 2,
      );
    recorder.check(
      'R-1 the problems are 1 to 16 { path, expected } pairs',
      wellFormed,
      JSON.stringify(problems.map((p) => Object.keys(p))),
    );
    const surrogateMarker = uniqueMarker('surrogate');
    const unstorable = await refused('R-1 todos__create with a lone surrogate in its title', () =>
      callTool(
        client,
        MCP_PATH,
        'todos__create',
        { ...inA, title: `\ud800 ${surrogateMarker}` },
        { credential: a.apiKey },
      ),
    );
    checkToolRefusal(
      recorder,
      'R-1 text the database cannot store is refused: dev.wildo/input_invalid naming title, never a 5xx',
      unstorable,
      {
        key: 'dev.wildo/input_invalid',
        reason: 'input_invalid',
        error: 'input_invalid',
        mustNotDisclose: [surrogateMarker],
      },
    );
    recorder.check(
      'R-1 the unstorable argument is named by its path',
      (refusalOf(unstorable)?.problems as { path?: unknown }[] | undefined)?.[0]?.path === 'title',
    );
    const missingId = await refused('R-1 todos__read without todoId', () =>
      callTool(client, MCP_PATH, 'todos__read', inA, { credential: a.apiKey, revision: HANDSHAKE_REVISION }),
    );
    checkToolRefusal(recorder, 'R-1 todos__read without its id argument is input_invalid (2025-11-25)', missingId, {
      key: 'dev.wildo/input_invalid',
      reason: 'input_invalid',
    });
    checkCountUnchanged(
      recorder,
      'R-1 the refused create stored nothing',
      countBefore,
      (await listTodoIds(client, a.admin, a.organizationId)).length,
    );

    // role_refused: DELETE needs ORG_MANAGER.
    const disposable = await createTodo(client, a.admin, a.organizationId, { title: uniqueMarker('R delete control') });
    const target = await createTodo(client, a.admin, a.organizationId, { title: uniqueMarker('R delete target') });
    const adminDelete = await callTool(
      client,
      MCP_PATH,
      'todos__delete',
      { todoId: disposable._id, ...inA },
      { credential: a.mcpToken },
    );
    checkToolControl(
      recorder,
      'R-2 CONTROL the admin’s delegated token CAN delete a todo',
      adminDelete,
      (await readTodo(client, a.admin, a.organizationId, disposable._id)) === undefined,
    );
    const memberRead = await callTool(
      client,
      MCP_PATH,
      'todos__read',
      { todoId: target._id },
      { credential: memberA.mcpToken },
    );
    checkToolControl(
      recorder,
      'R-2 CONTROL the member’s delegated token CAN read the todo (default organization)',
      memberRead,
      structuredOf(memberRead)?._id === target._id,
    );
    const snapshot = await readTodo(client, a.admin, a.organizationId, target._id);
    for (const [who, credential] of [
      ['an ORG_MEMBER API key', a.apiKey],
      ['an ORG_MEMBER person’s delegated token', memberA.mcpToken],
    ] as const) {
      const label = `R-2 ${who} canNOT delete: dev.wildo/policy_denied, reason role_refused, the policy not described`;
      const answer = await refused(label, () =>
        callTool(client, MCP_PATH, 'todos__delete', { todoId: target._id, ...inA }, { credential }),
      );
      checkToolRefusal(recorder, label, answer, {
        key: 'dev.wildo/policy_denied',
        reason: 'role_refused',
        error: 'policy_denied',
        mustNotDisclose: ['ORG_MANAGER', 'ORG_ADMIN'],
      });
    }
    checkUnchanged(
      recorder,
      'R-2 the todo is unchanged after the refused deletes',
      snapshot,
      await readTodo(client, a.admin, a.organizationId, target._id),
    );

    // An unknown tool is answered as unknown.
    const known = await callTool(
      client,
      MCP_PATH,
      'todos__read',
      { todoId: target._id, ...inA },
      { credential: a.apiKey },
    );
    checkToolControl(recorder, 'R-3 CONTROL a listed tool is callable', known);
    const unknown = await refused('R-3 unknown tool', () =>
      callTool(client, MCP_PATH, 'todos__drop_all', inA, { credential: a.apiKey }),
    );
    checkRpcRefusal(recorder, 'R-3 an unknown tool name is answered as unknown (-32602)', unknown, {
      status: 200,
      code: -32602,
    });

    const probes = options.inProcessTools;
    if (!probes) {
      note(
        'NOTE R-4/R-5 principal_not_allowed and lifecycle_blocked are not reachable on the reference application (no retired tool; every exposed tool is organization-scoped): mcp-hostile.e2e.test.ts covers them in-process.',
      );
      return;
    }
    // principal_not_allowed: a user-scoped tool, for a person but not for an organization machine.
    const personCall = await callTool(client, MCP_PATH, probes.userScoped.name, probes.userScoped.arguments, {
      credential: memberA.mcpToken,
    });
    checkToolControl(recorder, `R-4 CONTROL a person CAN call the user-scoped ${probes.userScoped.name}`, personCall);
    const machineCall = await refused('R-4 machine calls a user-scoped tool', () =>
      callTool(client, MCP_PATH, probes.userScoped.name, probes.userScoped.arguments, { credential: a.apiKey }),
    );
    checkToolRefusal(
      recorder,
      `R-4 an organization API key canNOT call ${probes.userScoped.name}: reason principal_not_allowed`,
      machineCall,
      { key: 'dev.wildo/policy_denied', reason: 'principal_not_allowed' },
    );

    // lifecycle_blocked: a retired tool is neither listed nor callable.
    const listed = toolNamesOf(await mcpCall(client, MCP_PATH, 'tools/list', {}, { credential: a.apiKey }));
    recorder.check(
      `R-5 CONTROL tools/list works and does not list the retired ${probes.retired.name}`,
      listed.includes('todos__read') && !listed.includes(probes.retired.name),
      `${listed.length} tools`,
    );
    const retired = await refused('R-5 retired tool', () =>
      callTool(client, MCP_PATH, probes.retired.name, probes.retired.arguments(a.organizationId), {
        credential: a.apiKey,
      }),
    );
    checkToolRefusal(
      recorder,
      `R-5 the retired ${probes.retired.name} is refused: dev.wildo/lifecycle_blocked`,
      retired,
      { key: 'dev.wildo/lifecycle_blocked', reason: 'lifecycle_blocked' },
    );
  },
};
