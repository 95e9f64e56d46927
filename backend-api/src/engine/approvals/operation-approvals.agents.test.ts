import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2A_PATH, a2aError, a2aResult, a2aToken, legacyMessage } from '../../testing/a2a.fixtures.js';
import { anthropicStubOptions, eventsOf, postStream } from '../../testing/agents.fixtures.js';
import { AnthropicStub, textReply, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { useTestDatabase } from '../../testing/test-backend.js';
import { defineBackendApplication } from '../bootstrap/backend-domain-module.js';
import { agency, governanceProbesApplication } from '../governance/governance-probes.fixtures.js';
import { governedStack, type GovernedStack } from '../governance/governance-surfaces.fixtures.js';
import { approvalProbesModule } from './approval-probes.fixtures.js';

// Agents and A2A: a tool over an operation that declares approval pauses the conversation (the existing approval
// pause) even though the tool itself does not ask; the approved call passes the dispatch path's approval step once.

const database = useTestDatabase();
const model = new AnthropicStub();
let stack: GovernedStack;
const TOOL = 'resource_refunds_issue';

beforeAll(async () => {
  await model.start();
  stack = await governedStack(database(), {
    application: defineBackendApplication({
      ...governanceProbesApplication,
      modules: [...governanceProbesApplication.modules, approvalProbesModule],
    }),
    ...anthropicStubOptions(model),
  });
});
afterAll(async () => {
  await stack?.t.close();
  await model.close();
});

const refunds = () => agency.reached('refund');
const turns = () => `/api/v1/organizations/${stack.orgId}/flows-actors/systems/refund-desk/turns`;

describe('an agent tool over an operation that declares approval', () => {
  it('pauses the conversation; nothing runs until the person approves; a stale decision is refused', async () => {
    const before = refunds();
    model.enqueue(toolCallsReply([{ id: 'r-1', name: TOOL, arguments: { bookingId: 'A-1', amount: 70 } }]));
    const turn = await postStream(stack.t.api, turns(), stack.people.member.auth, { message: 'Refund A-1.' });
    const [pause] = eventsOf(turn.turn, 'approval_required');
    if (!pause) throw new Error('the turn should wait for a decision');
    expect(pause.approval.arguments).toEqual({ bookingId: 'A-1', amount: 70 });
    expect(refunds()).toBe(before);
    const decide = (token: string) =>
      postStream(
        stack.t.api,
        `/api/v1/flows-actors/approvals/${pause.approval.approvalId}/decision`,
        stack.people.member.auth,
        {
          approvalToken: token,
          decision: 'approve',
        },
      );
    const forged = await stack.t.api
      .post(`/api/v1/flows-actors/approvals/${pause.approval.approvalId}/decision`)
      .set(stack.people.member.auth)
      .send({ approvalToken: 'forged', decision: 'approve' });
    expect(forged.body.error.reason).toBe('approval_required');
    expect(refunds()).toBe(before);
    model.enqueue(textReply('Refunded.'));
    const resumed = await decide(pause.approval.approvalToken);
    const [result] = eventsOf(resumed.turn, 'tool_result');
    expect(result?.outcome).toEqual({ ok: true, result: { refunded: 70 } });
    expect(refunds()).toBe(before + 1);
    // The decision was used: sent again, it is refused and nothing runs twice.
    const again = await stack.t.api
      .post(`/api/v1/flows-actors/approvals/${pause.approval.approvalId}/decision`)
      .set(stack.people.member.auth)
      .send({ approvalToken: pause.approval.approvalToken, decision: 'approve' });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(refunds()).toBe(before + 1);
  });

  it('over A2A: the task waits as input-required and runs once the person approved through the same gate', async () => {
    const before = refunds();
    const token = await a2aToken(stack.t.api, stack.people.member);
    model.enqueue(toolCallsReply([{ id: 'r-2', name: TOOL, arguments: { bookingId: 'A-2', amount: 15 } }]));
    const paused = await a2aResult(
      stack.t.api,
      A2A_PATH,
      'message/send',
      { message: legacyMessage('Refund A-2'), metadata: { skillId: 'refund-desk' } },
      token,
    );
    expect(paused.status.state).toBe('input-required');
    const approval = paused.status.message.parts.find((part: { kind: string }) => part.kind === 'data').data;
    expect(refunds()).toBe(before);
    const answer = (approvalToken: string) => ({
      message: legacyMessage('yes', {
        taskId: paused.id,
        contextId: paused.contextId,
        parts: [{ kind: 'data', data: { approvalId: approval.approvalId, approvalToken, decision: 'approve' } }],
      }),
    });
    const forged = await a2aError(stack.t.api, A2A_PATH, 'message/send', answer('forged'), token);
    expect(forged.data?.reason).toBe('approval_required');
    expect(refunds()).toBe(before);
    model.enqueue(textReply('Refunded.'));
    const resumed = await a2aResult(stack.t.api, A2A_PATH, 'message/send', answer(approval.approvalToken), token);
    expect(resumed.status.state).toBe('completed');
    expect(refunds()).toBe(before + 1);
  });
});
