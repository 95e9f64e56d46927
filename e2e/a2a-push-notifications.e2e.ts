/**
 * The A2A push-notification scenario: callback configurations (set, get, list, delete; secrets never echoed),
 * refusal of private literal callbacks, and tenant scoping, against a running stack.
 *
 *   BASE_URL=http://localhost:4241 npx tsx e2e/a2a-push-notifications.e2e.ts
 *
 * Delivery itself needs a receiver the stack's outbound policy admits; its acknowledgement is read on the
 * receiver, not here (a registration is not proof of delivery).
 */
import {
  A2A_PATH,
  describe,
  modelAnswers,
  rpc,
  runA2aScenario,
  sendToSkill,
  taskOf,
  type A2aScenarioContext,
  type A2aScenarioResults,
  type A2aScenarioSection,
} from './a2a/a2a-scenario.js';
import type { LogLine } from './support/check-recorder.js';
import { runAsScript } from './support/script-entry.js';

const SECRET = 'e2e-callback-secret';

async function configs(context: A2aScenarioContext): Promise<void> {
  const { client, recorder, a, b } = context;
  if (!(await modelAnswers(context))) return;
  const sent = await sendToSkill(context, 'Hello', a.a2aToken);
  const taskId = taskOf(sent)?.id as string;
  const config = {
    url: 'https://receiver.example/agent-updates',
    token: 'e2e-notification-token',
    authentication: { schemes: ['Bearer'], credentials: SECRET },
  };
  const set = await rpc(
    client,
    A2A_PATH,
    'tasks/pushNotificationConfig/set',
    { taskId, pushNotificationConfig: { id: 'p1', ...config } },
    a.a2aToken,
  );
  recorder.check(
    'P-0 CONTROL the owner registers a callback',
    set.result?.pushNotificationConfig?.id === 'p1',
    describe(set),
  );
  recorder.check(
    'P-1 the answer echoes no secret (credentials, token)',
    !JSON.stringify(set.result ?? {}).includes(SECRET) &&
      !JSON.stringify(set.result ?? {}).includes('e2e-notification-token'),
  );
  const listed = await rpc(client, A2A_PATH, 'ListTaskPushNotificationConfigs', { taskId }, a.a2aToken);
  recorder.check(
    'P-2 ListTaskPushNotificationConfigs lists it, without secrets',
    (listed.result?.configs ?? []).length === 1 && !JSON.stringify(listed.result ?? {}).includes(SECRET),
    describe(listed),
  );
  const got = await rpc(
    client,
    A2A_PATH,
    'tasks/pushNotificationConfig/get',
    { id: taskId, pushNotificationConfigId: 'p1' },
    a.a2aToken,
  );
  recorder.check(
    'P-3 tasks/pushNotificationConfig/get reads it',
    got.result?.pushNotificationConfig?.url === config.url,
    describe(got),
  );
  const privateUrl = await rpc(
    client,
    A2A_PATH,
    'tasks/pushNotificationConfig/set',
    { taskId, pushNotificationConfig: { url: 'https://10.0.0.7/hook' } },
    a.a2aToken,
  );
  recorder.check(
    'P-4 a callback on a private literal address is refused',
    privateUrl.error?.code === -32602,
    describe(privateUrl),
  );
  const plainHttp = await rpc(
    client,
    A2A_PATH,
    'tasks/pushNotificationConfig/set',
    { taskId, pushNotificationConfig: { url: 'http://receiver.example/hook' } },
    a.a2aToken,
  );
  recorder.check('P-5 a plain-http callback is refused', plainHttp.error?.code === -32602, describe(plainHttp));
  const foreign = await rpc(
    client,
    A2A_PATH,
    'tasks/pushNotificationConfig/set',
    { taskId, pushNotificationConfig: config },
    b.a2aToken,
  );
  recorder.check(
    'P-6 another organization cannot register a callback on the task (not found)',
    foreign.error?.code === -32001,
    describe(foreign),
  );
  const foreignList = await rpc(client, A2A_PATH, 'tasks/pushNotificationConfig/list', { id: taskId }, b.a2aToken);
  recorder.check('P-7 nor list its callbacks', foreignList.error?.code === -32001, describe(foreignList));
  const deleted = await rpc(client, A2A_PATH, 'DeleteTaskPushNotificationConfig', { taskId, id: 'p1' }, a.a2aToken);
  recorder.check('P-8 the owner deletes it', deleted.error === undefined, describe(deleted));
  const after = await rpc(client, A2A_PATH, 'ListTaskPushNotificationConfigs', { taskId }, a.a2aToken);
  recorder.check('P-9 it is gone', (after.result?.configs ?? []).length === 0, describe(after));
}

/** The scenario's sections, in order (the in-process test runs them all on one provisioned world). */
export const A2A_PUSH_SECTIONS: readonly A2aScenarioSection[] = [{ title: 'P: callback configurations', run: configs }];

/** Runs the scenario against `baseUrl`. */
export function runA2aPushScenario(baseUrl: string, log: LogLine): Promise<A2aScenarioResults> {
  return runA2aScenario('A2A push-notification scenario', baseUrl, log, A2A_PUSH_SECTIONS);
}

await runAsScript(import.meta.url, 'http://localhost:4241', runA2aPushScenario);
