/**
 * The A2A dialects scenario: cards, both method vocabularies on one endpoint, state spellings, blocking and
 * non-blocking sends, skill routing, against a running stack.
 *
 *   BASE_URL=http://localhost:4241 npx tsx e2e/a2a-dialects.e2e.ts
 *
 * Two sign-ups; model-mediated checks need a model provider configured on the stack.
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
  SKILL,
  stateOf,
  taskOf,
  v1Message,
  type A2aScenarioContext,
  type A2aScenarioResults,
  type A2aScenarioSection,
} from './a2a/a2a-scenario.js';
import type { LogLine } from './support/check-recorder.js';
import { runAsScript } from './support/script-entry.js';

async function cards({ client, recorder }: A2aScenarioContext): Promise<void> {
  const legacy = await client.get('/.well-known/agent.json');
  const card = legacy.body as { url?: string; skills?: { id: string }[] } | undefined;
  recorder.check(
    'D-1 the default card is at /.well-known/agent.json with a url and skills',
    legacy.status === 200 && Boolean(card?.url) && (card?.skills ?? []).some((s) => s.id === SKILL),
  );
  const v1 = await client.get(`${A2A_PATH}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } });
  const interfaces =
    (v1.body as { supportedInterfaces?: { protocolVersion: string }[] } | undefined)?.supportedInterfaces ?? [];
  recorder.check(
    'D-2 the 1.0 card lists supportedInterfaces for 1.0 and 0.3',
    interfaces.some((i) => i.protocolVersion === '1.0') && interfaces.some((i) => i.protocolVersion.startsWith('0.3')),
  );
  const concierge = await client.get(`${CONCIERGE_PATH}/.well-known/agent-card.json`);
  const skills = ((concierge.body as { skills?: { id: string }[] } | undefined)?.skills ?? []).map((s) => s.id);
  recorder.check(
    'D-3 the concierge card is narrowed to its actorSystemRefs',
    JSON.stringify(skills) === JSON.stringify([SKILL]),
  );
  const unknown = await client.get(`${A2A_PATH}/no-such-agent/.well-known/agent-card.json`);
  recorder.check(
    'D-4 an unknown instance is 404, never the default card',
    unknown.status === 404,
    `HTTP ${unknown.status}`,
  );
}

async function dialects(context: A2aScenarioContext): Promise<void> {
  const { client, recorder, a } = context;
  const unknownSkill = await rpc(
    client,
    A2A_PATH,
    'message/send',
    { message: legacyMessage('hi'), metadata: { skillId: 'no-such-skill' } },
    a.a2aToken,
  );
  recorder.check(
    'D-5 an unknown skillId is refused as invalid params (before any model turn)',
    unknownSkill.error?.code === -32602,
    describe(unknownSkill),
  );
  const version = await rpc(client, A2A_PATH, 'SendMessage', { message: v1Message('hi') }, a.a2aToken, {
    'a2a-version': '0.3.0',
  });
  recorder.check(
    'D-6 A2A-Version 0.3.0 with a 1.0 method is refused (version not supported)',
    version.error?.code === -32009,
    describe(version),
  );
  const list = await rpc(client, A2A_PATH, 'tasks/list', {}, a.a2aToken);
  recorder.check(
    'D-7 task listing is a 1.0 method only (tasks/list: method not found)',
    list.error?.code === -32601,
    describe(list),
  );
  if (!(await modelAnswers(context))) return;
  const legacy = await sendToSkill(context, 'One word, please.', a.a2aToken);
  const legacyTask = taskOf(legacy);
  recorder.check(
    'D-8 message/send answers a task with kind "task" and a lower-case state',
    legacy.result?.kind === 'task' && legacyTask?.status?.state === 'completed',
    describe(legacy),
  );
  recorder.check(
    'D-9 the completed task carries the reply as a text artifact',
    typeof legacyTask?.artifacts?.[0]?.parts?.[0]?.text === 'string',
  );
  const v1 = await rpc(
    client,
    A2A_PATH,
    'SendMessage',
    { message: v1Message('One word, please.'), metadata: { skillId: SKILL } },
    a.a2aToken,
  );
  recorder.check(
    'D-10 SendMessage answers { task } with TASK_STATE_COMPLETED and A2A-Version: 1.0',
    v1.result?.task?.status?.state === 'TASK_STATE_COMPLETED' && v1.headers.get('a2a-version') === '1.0',
    describe(v1),
  );
  const got = await rpc(client, A2A_PATH, 'GetTask', { id: legacyTask?.id }, a.a2aToken);
  recorder.check(
    'D-11 GetTask reads the 0.3 task in the 1.0 spelling',
    got.result?.id === legacyTask?.id && got.result?.status?.state === 'TASK_STATE_COMPLETED',
    describe(got),
  );
  const listed = await rpc(client, A2A_PATH, 'ListTasks', {}, a.a2aToken);
  recorder.check(
    'D-12 ListTasks lists the caller’s tasks',
    (listed.result?.tasks ?? []).some((t: { id: string }) => t.id === legacyTask?.id),
    describe(listed),
  );
  const opened = await sendToSkill(context, 'Count my todos.', a.a2aToken, { configuration: { blocking: false } });
  recorder.check(
    'D-13 blocking: false opens an addressable task (never a message id)',
    ['working', 'completed'].includes(stateOf(taskOf(opened)) ?? ''),
    describe(opened),
  );
  const immediate = await rpc(
    client,
    A2A_PATH,
    'SendMessage',
    { message: v1Message('Count my todos.'), metadata: { skillId: SKILL }, returnImmediately: true },
    a.a2aToken,
  );
  recorder.check(
    'D-14 returnImmediately opens a task in the 1.0 spelling',
    /^TASK_STATE_(WORKING|COMPLETED)$/.test(String(immediate.result?.task?.status?.state)),
    describe(immediate),
  );
  const concierge = await rpc(
    client,
    CONCIERGE_PATH,
    'message/send',
    { message: legacyMessage('Hello') },
    a.conciergeToken,
  );
  recorder.check(
    'D-15 the concierge routes to its only skill without a skillId',
    stateOf(taskOf(concierge)) === 'completed',
    describe(concierge),
  );
}

/** The scenario's sections, in order (the in-process test runs them all on one provisioned world). */
export const A2A_DIALECTS_SECTIONS: readonly A2aScenarioSection[] = [
  { title: 'D: agent cards', run: cards },
  { title: 'D: both dialects on one endpoint', run: dialects },
];

/** Runs the scenario against `baseUrl`. */
export function runA2aDialectsScenario(baseUrl: string, log: LogLine): Promise<A2aScenarioResults> {
  return runA2aScenario('A2A dialects scenario', baseUrl, log, A2A_DIALECTS_SECTIONS);
}

await runAsScript(import.meta.url, 'http://localhost:4241', runA2aDialectsScenario);
