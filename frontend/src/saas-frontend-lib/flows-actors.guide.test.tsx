import { act, render, screen, within } from '@testing-library/react';
import {
  FlowsActors_ApprovalQueue,
  FlowsActors_ApprovalRequest,
  FlowsActorsProvider,
} from '@wildo-ai/saas-frontend-lib';
import { FrontendView_ScopeMode, launcherEntries } from '@wildo-ai/saas-frontend-lib/companion';
import type { FlowsActorsViewDefinition as SharedViewDefinition } from '@wildo/shared-lib';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { flowsActorsViews } from '../app.views';
import { approvalFixture, jsonResponse, sse, sseResponse, stubFetch } from '../assistant/assistant.test-support';
import { signIn } from '../test-support/fixtures';
import { CustomReviewScreen } from './flows-actors.guide';

const APPROVALS = 'GET /api/v1/flows-actors/approvals';
const DECISION = 'POST /api/v1/flows-actors/approvals/appr-1/decision';
// The tool allows modified arguments; the guide's surface chooses read-only ones.
const pending = approvalFixture({ allowArgumentModification: true });

function decisionStream() {
  return sseResponse(
    sse(
      [
        'approval_decided',
        {
          type: 'approval_decided',
          approvalId: 'appr-1',
          toolCallId: 'call-1',
          decision: 'approve',
          arguments: pending.arguments,
        },
      ],
      [
        'tool_result',
        {
          type: 'tool_result',
          toolCallId: 'call-1',
          functionRef: 'todos.update',
          outcome: { ok: true, result: { _id: 'todo-1' } },
        },
      ],
      [
        'turn_completed',
        { type: 'turn_completed', status: 'completed', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
      ],
    ),
  );
}

describe('the guide-shaped approval request and queue (@wildo-ai/saas-frontend-lib)', () => {
  it('opens a queued decision beside the conversation with read-only arguments, and approves it', async () => {
    signIn();
    let listed = [pending];
    const backend = stubFetch({
      [APPROVALS]: () => jsonResponse({ data: listed }),
      [DECISION]: () => {
        listed = [];
        return decisionStream();
      },
    });
    render(
      <FlowsActorsProvider organizationId="org-1" systemRef="todo-assistant">
        <CustomReviewScreen />
      </FlowsActorsProvider>,
    );

    // Nothing is open yet: the queue lists the decision waiting elsewhere.
    const queue = screen.getByRole('complementary', { name: 'Elsewhere' });
    const review = await within(queue).findByRole('button', { name: 'Review todos.update request' });
    expect(screen.queryByRole('heading', { name: 'Approval needed' })).toBeNull();
    act(() => review.click());

    // The request renders for its conversation; the guide's allowArgumentModification={false} keeps arguments read-only.
    const card = (await screen.findByRole('heading', { level: 2, name: 'Approval needed' })).closest('section')!;
    expect(within(card).queryByRole('textbox')).toBeNull();
    expect(within(card).getByText('Weekly shop')).toBeTruthy();
    expect(within(queue).getByText('(shown above)')).toBeTruthy();

    act(() => within(card).getByRole('button', { name: 'Approve' }).click());
    await within(queue).findByText('Nothing is waiting for your approval.');
    expect(screen.queryByRole('heading', { name: 'Approval needed' })).toBeNull();
    expect(backend.to(DECISION).map((request) => request.body)).toEqual([
      { approvalToken: 'token-abc', decision: 'approve' },
    ]);
  });

  it('shows nothing for another conversation, and editable arguments by default', async () => {
    signIn();
    stubFetch({ [APPROVALS]: () => jsonResponse({ data: [pending] }) });
    render(
      <FlowsActorsProvider organizationId="org-1" systemRef="todo-assistant">
        <FlowsActors_ApprovalRequest executionId="another-conversation" />
        <FlowsActors_ApprovalRequest executionId={pending.executionId} />
        <FlowsActors_ApprovalQueue />
      </FlowsActorsProvider>,
    );
    const review = await screen.findByRole('button', { name: 'Review todos.update request' });
    act(() => review.click());
    await screen.findByRole('heading', { level: 2, name: 'Approval needed' });
    // One card: the request for another execution renders nothing; the default lets the person edit the arguments.
    expect(screen.getAllByRole('heading', { level: 2, name: 'Approval needed' })).toHaveLength(1);
    expect(screen.getByRole('textbox', { name: 'Title' })).toBeTruthy();
  });

  it('refuses to render outside the flows-actors context', () => {
    expect(() => render(<FlowsActors_ApprovalRequest executionId="x" />)).toThrow(/inside <FlowsActorsProvider>/);
  });

  it('turns the application’s flowsActorsViews into launcher entries', () => {
    expect(flowsActorsViews[0]?.scope).toBe(FrontendView_ScopeMode.APPLICATION);
    // The companion's scope enum mirrors the shared one (checked by the compiler).
    expectTypeOf<`${FrontendView_ScopeMode}`>().toEqualTypeOf<`${SharedViewDefinition['scope']}`>();
    const [entry, ...rest] = launcherEntries(flowsActorsViews);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      viewRef: 'todo-assistant-view',
      systemRef: 'todo-assistant',
      label: 'Todo assistant',
    });
    expect(entry?.path('org 1')).toBe('/organizations/org%201/views/todo-assistant-view');
    const embedded = launcherEntries([{ ...flowsActorsViews[0]!, ref: 'triage-view', isAddressable: false }]);
    expect(embedded[0]).toMatchObject({ label: 'Triage' });
    expect(embedded[0]?.path('org-1')).toBeNull();
  });
});
