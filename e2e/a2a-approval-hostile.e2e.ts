/**
 * The A2A approval-hostile scenario: a rename paused as `input-required` is answered through the same approval gate
 * as the browser; forged, foreign and machine answers are refused and change nothing; the owner's approval applies
 * it, against a running stack.
 *
 *   BASE_URL=http://localhost:4241 npx tsx e2e/a2a-approval-hostile.e2e.ts
 */
import {
  A2A_PATH,
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

async function approvals(context: A2aScenarioContext): Promise<void> {
  const { client, recorder, a, b } = context;
  if (!(await modelAnswers(context))) return;
  const todo = await createTodo(client, a.admin, a.organizationId, { title: 'Approve me' });
  const title = async () => (await readTodo(client, a.admin, a.organizationId, String(todo._id)))?.title;
  const paused = await sendToSkill(context, `Rename the todo with id ${todo._id} to "approved title".`, a.a2aToken);
  const task = taskOf(paused);
  recorder.check(
    'G-0 CONTROL the rename pauses as input-required before any effect',
    stateOf(task) === 'input-required' && (await title()) === 'Approve me',
    describe(paused),
  );
  const approval = (task?.status?.message?.parts ?? []).find((p: { kind?: string }) => p.kind === 'data')?.data;
  if (
    !recorder.check(
      'G-1 the pause carries the approval request (approvalId, approvalToken)',
      typeof approval?.approvalId === 'string',
    )
  )
    return;
  const answer = (decision: Record<string, unknown>, credential = a.a2aToken, taskId = task.id) =>
    rpc(
      client,
      A2A_PATH,
      'message/send',
      { message: legacyMessage('decision', { taskId, metadata: decision }) },
      credential,
    );
  const forged = await answer({ approvalId: approval.approvalId, approvalToken: 'forged', decision: 'approve' });
  recorder.check(
    'G-2 a forged approval token is refused (approval_required)',
    forged.error?.data?.reason === 'approval_required',
    describe(forged),
  );
  const foreign = await answer(
    { approvalId: approval.approvalId, approvalToken: approval.approvalToken, decision: 'approve' },
    b.a2aToken,
  );
  recorder.check(
    'G-3 another organization answering the task: not found',
    foreign.error?.code === -32001,
    describe(foreign),
  );
  const machine = await answer(
    { approvalId: approval.approvalId, approvalToken: approval.approvalToken, decision: 'approve' },
    a.apiKey,
  );
  recorder.check(
    'G-4 the organization’s machine credential answering: not found (not its task)',
    machine.error?.code === -32001,
    describe(machine),
  );
  recorder.check('G-5 nothing changed after the refused answers', (await title()) === 'Approve me');
  const approved = await answer({
    approvalId: approval.approvalId,
    approvalToken: approval.approvalToken,
    decision: 'approve',
  });
  recorder.check(
    'G-6 CONTROL the owner’s approval runs the rename and completes the task',
    stateOf(taskOf(approved)) === 'completed',
    describe(approved),
  );
  recorder.check('G-7 the stored title is the approved one', (await title()) === 'approved title');
  const replay = await answer({
    approvalId: approval.approvalId,
    approvalToken: approval.approvalToken,
    decision: 'approve',
  });
  recorder.check(
    'G-8 replaying the approval is refused (the task no longer waits)',
    replay.error !== undefined,
    describe(replay),
  );
}

/** The scenario's sections, in order (the in-process test runs them all on one provisioned world). */
export const A2A_APPROVAL_HOSTILE_SECTIONS: readonly A2aScenarioSection[] = [
  { title: 'G: the approval gate over A2A', run: approvals },
];

/** Runs the scenario against `baseUrl`. */
export function runA2aApprovalHostileScenario(baseUrl: string, log: LogLine): Promise<A2aScenarioResults> {
  return runA2aScenario('A2A approval-hostile scenario', baseUrl, log, A2A_APPROVAL_HOSTILE_SECTIONS);
}

await runAsScript(import.meta.url, 'http://localhost:4241', runA2aApprovalHostileScenario);
