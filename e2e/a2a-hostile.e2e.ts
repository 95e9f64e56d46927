/**
 * The A2A hostile scenario: another tenant's task ids on every method, token audience confusion, and tenant writes
 * attempted through the conversation path, judged on the stored effect, against a running stack.
 *
 *   BASE_URL=http://localhost:4241 npx tsx e2e/a2a-hostile.e2e.ts
 *
 * A2A is model-mediated: a safe answer does not show the model tried the foreign write. In-process runs (see
 * a2a-hostile.e2e.test.ts) script the attempt and inspect the tool calls; against a real model, read the stored
 * effects reported here.
 */
import {
  A2A_PATH,
  CONCIERGE_PATH,
  describe,
  legacyMessage,
  modelAnswers,
  rpc,
  runA2aScenario,
  sendToSkill,
  stateOf,
  taskOf,
  type A2aScenarioContext,
  type A2aScenarioResults,
  type A2aScenarioSection,
} from './a2a/a2a-scenario.js';
import type { LogLine } from './support/check-recorder.js';
import { createTodo, readTodo } from './support/fixtures.js';
import { runAsScript } from './support/script-entry.js';

async function tenantTasks(context: A2aScenarioContext): Promise<void> {
  const { client, recorder, a, b } = context;
  if (!(await modelAnswers(context))) return;
  const sent = await sendToSkill(context, 'Hello', a.a2aToken);
  const task = taskOf(sent);
  const own = await rpc(client, A2A_PATH, 'tasks/get', { id: task?.id }, a.a2aToken);
  recorder.check('H-0 CONTROL organization A reads its own task', own.result?.id === task?.id, describe(own));
  const probes: [string, string, Record<string, unknown>][] = [
    ['H-1', 'tasks/get', { id: task?.id }],
    ['H-2', 'GetTask', { id: task?.id }],
    ['H-3', 'tasks/cancel', { id: task?.id }],
    ['H-4', 'CancelTask', { id: task?.id }],
    ['H-5', 'tasks/resubscribe', { id: task?.id }],
    [
      'H-6',
      'tasks/pushNotificationConfig/set',
      { taskId: task?.id, pushNotificationConfig: { url: 'https://receiver.example/h' } },
    ],
    ['H-7', 'message/send', { message: legacyMessage('continue', { taskId: task?.id }) }],
  ];
  for (const [id, method, params] of probes) {
    const answer = await rpc(client, A2A_PATH, method, params, b.a2aToken);
    recorder.check(
      `${id} organization B's ${method} on A's task: not found`,
      answer.error?.code === -32001,
      describe(answer),
    );
  }
  const listed = await rpc(client, A2A_PATH, 'ListTasks', {}, b.a2aToken);
  recorder.check(
    'H-8 B’s ListTasks does not show A’s task',
    !(listed.result?.tasks ?? []).some((t: { id: string }) => t.id === task?.id),
    describe(listed),
  );
  const after = await rpc(client, A2A_PATH, 'tasks/get', { id: task?.id }, a.a2aToken);
  recorder.check('H-9 A’s task is unchanged (still completed)', stateOf(after.result) === 'completed', describe(after));
}

async function audiences({ client, recorder, a }: A2aScenarioContext): Promise<void> {
  const own = await rpc(client, CONCIERGE_PATH, 'ListTasks', {}, a.conciergeToken);
  recorder.check(
    'A-0 CONTROL the concierge token works at the concierge',
    own.status === 200 && own.error === undefined,
    describe(own),
  );
  const crossed = await rpc(client, A2A_PATH, 'ListTasks', {}, a.conciergeToken);
  recorder.check(
    'A-1 the concierge token is refused at the default agent (401)',
    crossed.status === 401,
    describe(crossed),
  );
  const reverse = await rpc(client, CONCIERGE_PATH, 'ListTasks', {}, a.a2aToken);
  recorder.check(
    'A-2 the default agent’s token is refused at the concierge (401)',
    reverse.status === 401,
    describe(reverse),
  );
  const anonymous = await rpc(client, A2A_PATH, 'ListTasks', {}, undefined);
  recorder.check(
    'A-3 no credential: 401 with an RFC 9728 challenge',
    anonymous.status === 401 && (anonymous.headers.get('www-authenticate') ?? '').includes('resource_metadata='),
    describe(anonymous),
  );
}

async function tenantWrites(context: A2aScenarioContext): Promise<void> {
  const { client, recorder, a, b } = context;
  const todo = await createTodo(client, a.admin, a.organizationId, { title: 'A private todo' });
  const ask = (text: string, credential = b.a2aToken) => sendToSkill(context, text, credential);
  const attempt = await ask(`Rename the todo with id ${todo._id} to "taken over".`);
  recorder.check(
    'W-1 B’s rename request through the conversation is answered (no internal error)',
    attempt.status < 500,
    describe(attempt),
  );
  // Model-mediated: when the model did propose the foreign rename, B approves its own proposal, so the write really
  // reaches the dispatch path as B; the stored effect decides.
  const proposed = taskOf(attempt);
  const approval = (proposed?.status?.message?.parts ?? []).find((p: { kind?: string }) => p.kind === 'data')?.data;
  if (stateOf(proposed) === 'input-required' && approval?.arguments?.id === todo._id) {
    context.note('   the model proposed the foreign rename; B approves it');
    const pushed = await rpc(
      client,
      A2A_PATH,
      'message/send',
      {
        message: legacyMessage('yes', {
          taskId: proposed.id,
          metadata: { approvalId: approval.approvalId, approvalToken: approval.approvalToken, decision: 'approve' },
        }),
      },
      b.a2aToken,
    );
    recorder.check(
      'W-1b B’s approved foreign rename runs as B and ends without an internal error',
      pushed.status < 500,
      describe(pushed),
    );
  } else context.note('   the model did not propose the foreign rename: only the stored effect below is evidence');
  const stored = await readTodo(client, a.admin, a.organizationId, String(todo._id));
  recorder.check('W-2 A’s todo keeps its title (stored effect read by A)', stored?.title === 'A private todo');
  const own = await ask(`Rename the todo with id ${todo._id} to "renamed by its owner".`, a.a2aToken);
  recorder.check(
    'W-3 CONTROL the owner’s same request reaches the tool: it pauses for approval',
    stateOf(taskOf(own)) === 'input-required',
    describe(own),
  );
}

/** The scenario's sections, in order (the in-process test runs them all on one provisioned world). */
export const A2A_HOSTILE_SECTIONS: readonly A2aScenarioSection[] = [
  { title: 'H: another organization’s task ids', run: tenantTasks },
  { title: 'A: token audiences', run: audiences },
  { title: 'W: tenant writes through the conversation path', run: tenantWrites },
];

/** Runs the scenario against `baseUrl`. */
export function runA2aHostileScenario(baseUrl: string, log: LogLine): Promise<A2aScenarioResults> {
  return runA2aScenario('A2A hostile scenario', baseUrl, log, A2A_HOSTILE_SECTIONS);
}

await runAsScript(import.meta.url, 'http://localhost:4241', runA2aHostileScenario);
