/**
 * The A2A resubscribe scenario: a non-blocking task followed with tasks/resubscribe and SubscribeToTask (the
 * current state first, then changes; no replay), and another tenant refused, against a running stack.
 *
 *   BASE_URL=http://localhost:4241 npx tsx e2e/a2a-resubscribe.e2e.ts
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

async function resubscribe(context: A2aScenarioContext): Promise<void> {
  const { client, recorder, a, b } = context;
  if (!(await modelAnswers(context))) return;
  const opened = await sendToSkill(context, 'Summarize the records I can access.', a.a2aToken, {
    configuration: { blocking: false },
  });
  const task = taskOf(opened);
  recorder.check('R-0 CONTROL a non-blocking send opens a task', typeof task?.id === 'string', describe(opened));
  const followed = await rpc(client, A2A_PATH, 'tasks/resubscribe', { id: task?.id }, a.a2aToken);
  recorder.check(
    'R-1 the stream starts with the task’s current state',
    followed.frames[0]?.kind === 'task' && followed.frames[0]?.id === task?.id,
  );
  const last = followed.frames.at(-1);
  recorder.check(
    'R-2 the stream ends with a final lower-case state',
    (last?.kind === 'status-update' && last?.final === true) ||
      (last?.kind === 'task' && last?.status?.state === 'completed'),
  );
  const v1 = await rpc(client, A2A_PATH, 'SubscribeToTask', { id: task?.id }, a.a2aToken);
  recorder.check(
    'R-3 SubscribeToTask on an ended task: its state in TASK_STATE_* spelling, then the stream closes',
    v1.frames.length === 1 && v1.frames[0]?.task?.status?.state === 'TASK_STATE_COMPLETED',
  );
  const foreign = await rpc(client, A2A_PATH, 'tasks/resubscribe', { id: task?.id }, b.a2aToken);
  recorder.check(
    'R-4 another organization’s resubscribe is not found',
    foreign.error?.code === -32001,
    describe(foreign),
  );
}

/** The scenario's sections, in order (the in-process test runs them all on one provisioned world). */
export const A2A_RESUBSCRIBE_SECTIONS: readonly A2aScenarioSection[] = [
  { title: 'R: reattaching to a task', run: resubscribe },
];

/** Runs the scenario against `baseUrl`. */
export function runA2aResubscribeScenario(baseUrl: string, log: LogLine): Promise<A2aScenarioResults> {
  return runA2aScenario('A2A resubscribe scenario', baseUrl, log, A2A_RESUBSCRIBE_SECTIONS);
}

await runAsScript(import.meta.url, 'http://localhost:4241', runA2aResubscribeScenario);
