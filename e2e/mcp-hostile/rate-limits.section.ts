import { createOrganization, listTodoIds, signUp, todosPath, uniqueMarker } from '../support/fixtures.js';
import { callTool, mcpCall, structuredOf, type McpExchange } from '../support/mcp-client.js';
import { createOrganizationApiKey } from '../support/mcp-credentials.js';
import { recordOf } from '../support/responses.js';
import {
  checkRpcRefusal,
  checkToolControl,
  checkToolRefusal,
  MCP_PATH,
  type McpScenarioSection,
} from './scenario-context.js';

/** `todos__create`'s declared policy in the reference application: 120 calls per 60 s per principal. */
const CREATE_POLICY_POINTS = 120;

/**
 * L: rate limits, on an organization of their own (its counters touch nobody else). `todos__create`'s operation
 * policy is charged in the MCP bucket: 120 calls succeed, the 121st is refused with `rate_limit_exceeded` and
 * stores nothing, while the same key still creates through REST (a separate bucket). Then the blanket per-principal
 * burst throttle: calls beyond it are refused the same way (`tools/call`) or with 429 (`tools/list`). The burst
 * probe comes last: it blocks this organization's key for the rest of the throttle window.
 */
export const rateLimitsSection: McpScenarioSection = {
  title: 'L: rate limits (operation policy in the MCP bucket, blanket burst throttle)',
  async run({ client, recorder, refused, options }) {
    const owner = await signUp(client, 'mcp-rate');
    const organizationId = await createOrganization(client, owner, uniqueMarker('e2e MCP rate org'));
    const key = await createOrganizationApiKey(client, owner, organizationId, {
      name: 'MCP rate',
      label: 'API key of the rate org',
    });
    const inC = { organizationId };

    const answers: McpExchange[] = [];
    for (let i = 0; i < CREATE_POLICY_POINTS; i++)
      answers.push(
        await callTool(client, MCP_PATH, 'todos__create', { ...inC, title: `rate ${i}` }, { credential: key }),
      );
    const succeeded = answers.filter((answer) => typeof structuredOf(answer)?._id === 'string').length;
    recorder.check(
      `L-0 CONTROL ${CREATE_POLICY_POINTS} todos__create calls within the policy all succeed`,
      succeeded === CREATE_POLICY_POINTS,
      `${succeeded} succeeded`,
    );
    const marker = uniqueMarker('over the limit');
    const over = await refused('L-1 the call over the policy', () =>
      callTool(client, MCP_PATH, 'todos__create', { ...inC, title: marker }, { credential: key }),
    );
    checkToolRefusal(
      recorder,
      `L-1 call ${CREATE_POLICY_POINTS + 1} is refused: dev.wildo/policy_denied, reason rate_limit_exceeded`,
      over,
      { key: 'dev.wildo/policy_denied', reason: 'rate_limit_exceeded', mustNotDisclose: [marker] },
    );
    const ids = await listTodoIds(client, owner, organizationId);
    recorder.check(
      `L-2 exactly ${CREATE_POLICY_POINTS} todos exist: the refused call stored nothing`,
      ids.length === CREATE_POLICY_POINTS,
      `${ids.length} todos`,
    );
    const viaRest = await client.post(
      todosPath(organizationId),
      { title: uniqueMarker('rest after mcp limit') },
      { authorization: key.header() },
    );
    recorder.check(
      'L-3 the same key still creates through REST: the MCP policy bucket is its own',
      viaRest.status === 201 && recordOf(viaRest) !== undefined,
      `status ${viaRest.status}`,
    );

    const burst = options.burstPoints ?? 600;
    if (burst <= 0) return;
    // The blanket throttle counts every request of this organization's machines; fire in parallel so the window
    // cannot roll over before it is exhausted, and stop at the first refusal (bounded: burst + 100 calls).
    const sample = ids[0] as string;
    const control = await callTool(client, MCP_PATH, 'todos__read', { todoId: sample, ...inC }, { credential: key });
    checkToolControl(recorder, 'L-4 CONTROL todos__read succeeds before the burst', control);
    let throttled: McpExchange | undefined;
    let sent = 0;
    while (!throttled && sent < burst + 100) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, () =>
          callTool(client, MCP_PATH, 'todos__read', { todoId: sample, ...inC }, { credential: key }),
        ),
      );
      sent += batch.length;
      throttled = batch.find((answer) => answer.result?.isError === true);
    }
    recorder.check(
      `L-4 the burst throttle refuses within ${burst + 100} calls`,
      throttled !== undefined,
      `${sent} calls sent`,
    );
    if (!throttled) return;
    checkToolRefusal(
      recorder,
      'L-5 a call over the burst throttle is refused: dev.wildo/policy_denied, reason rate_limit_exceeded',
      throttled,
      { key: 'dev.wildo/policy_denied', reason: 'rate_limit_exceeded' },
    );
    const again = await refused('L-6 a call during the throttled window', () =>
      callTool(client, MCP_PATH, 'todos__read', { todoId: sample, ...inC }, { credential: key }),
    );
    checkToolRefusal(recorder, 'L-6 the next tools/call in the window is refused too (nothing dispatched)', again, {
      key: 'dev.wildo/policy_denied',
      reason: 'rate_limit_exceeded',
    });
    const list = await refused('L-7 tools/list during the throttled window', () =>
      mcpCall(client, MCP_PATH, 'tools/list', {}, { credential: key }),
    );
    checkRpcRefusal(recorder, 'L-7 tools/list in the window is 429', list, { status: 429 });
  },
};
