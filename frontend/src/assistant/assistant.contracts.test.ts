import { FlowsActors_ApprovalQueueSchema, FlowsActors_TurnEventSchema, ResourcePrimaryScope } from '@wildo/shared-lib';
import { TODO_ASSISTANT_VIEW } from '@wildo/shared-lib/app';
import { describe, expect, it } from 'vitest';
import { ApprovalListResponseSchema, TurnEventSchema } from './assistant.contracts';
import { approvalFixture } from './assistant.test-support';
import {
  TODO_ASSISTANT_SYSTEM_REF,
  TODO_ASSISTANT_VIEW_REF,
  TODO_ASSISTANT_VIEW_ROUTE,
  matchTodoAssistantPath,
  todoAssistantPath,
} from './todo-assistant.view';

// The browser re-states the assistant's wire shapes (see assistant.contracts.ts); both must judge samples alike.
const approval = approvalFixture();

describe('assistant contracts agree with @wildo/shared-lib', () => {
  it.each([
    [
      'execution',
      { type: 'execution', executionId: 'e1', systemRef: 'todo-assistant', agentRef: 'todo-assistant.chat.agent' },
      true,
    ],
    ['text_delta', { type: 'text_delta', text: 'Hi' }, true],
    ['tool_call', { type: 'tool_call', toolCallId: 'c1', functionRef: 'todos.read', arguments: { id: 't1' } }, true],
    [
      'tool_result ok',
      {
        type: 'tool_result',
        toolCallId: 'c1',
        functionRef: 'todos.read',
        outcome: { ok: true, result: { _id: 't1' } },
      },
      true,
    ],
    [
      'tool_result refused',
      {
        type: 'tool_result',
        toolCallId: 'c1',
        functionRef: 'todos.read',
        outcome: { ok: false, error: { code: 'NOT_FOUND', message: 'No such todo.' } },
      },
      true,
    ],
    ['approval_required', { type: 'approval_required', approval }, true],
    [
      'approval_decided',
      { type: 'approval_decided', approvalId: 'a1', toolCallId: 'c1', decision: 'deny', arguments: {} },
      true,
    ],
    [
      'turn_completed',
      { type: 'turn_completed', status: 'completed', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
      true,
    ],
    [
      'error',
      { type: 'error', error: { code: 'INTERNAL', message: 'An internal error occurred.', requestId: 'r1' } },
      true,
    ],
    [
      'an approval with a local-time expiry',
      { type: 'approval_required', approval: { ...approval, expiresAt: '2030-11-05 10:15' } },
      false,
    ],
    ['an approval without token', { type: 'approval_required', approval: { ...approval, approvalToken: '' } }, false],
    [
      'a tool_result with a bare ok',
      { type: 'tool_result', toolCallId: 'c1', functionRef: 'f', outcome: { ok: false } },
      false,
    ],
    [
      'an unknown completion status',
      { type: 'turn_completed', status: 'done', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
      false,
    ],
    ['an unknown type', { type: 'surprise' }, false],
  ])('turn event: %s', (_label, event, valid) => {
    expect(FlowsActors_TurnEventSchema.safeParse(event).success).toBe(valid);
    expect(TurnEventSchema.safeParse(event).success).toBe(valid);
  });

  it.each([
    ['a queue', [approval], true],
    ['an empty queue', [], true],
    ['an approval without allowArgumentModification', [{ ...approval, allowArgumentModification: undefined }], false],
  ])('approval queue: %s', (_label, approvals, valid) => {
    expect(FlowsActors_ApprovalQueueSchema.safeParse({ approvals }).success).toBe(valid);
    expect(ApprovalListResponseSchema.safeParse({ data: approvals }).success).toBe(valid);
  });

  it('routes the todo assistant view as shared-lib defines it', () => {
    expect(TODO_ASSISTANT_VIEW).toMatchObject(TODO_ASSISTANT_VIEW_ROUTE);
    expect(TODO_ASSISTANT_VIEW.ref).toBe(TODO_ASSISTANT_VIEW_REF);
    expect(TODO_ASSISTANT_VIEW.systemRef).toBe(TODO_ASSISTANT_SYSTEM_REF);
    expect(TODO_ASSISTANT_VIEW.primaryScope).toBe(ResourcePrimaryScope.ORGANIZATIONS);
    expect(matchTodoAssistantPath(todoAssistantPath('org 1'))).toBe('org 1');
    expect(matchTodoAssistantPath('/organizations/o1/assistant/extra')).toBeNull();
  });
});
