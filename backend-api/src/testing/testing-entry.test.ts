import {
  decideApproval,
  modelToolName,
  pendingApprovalsOf,
  postTurn,
  startStubModels,
  type StubModels,
  type TurnEvent,
} from '@wildo/backend-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUp, type TestUser } from './identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from './test-backend.js';

// The public testing entry, imported by its package name as an application would: the stand-in models drive a
// streaming turn of the reference application's todo assistant, tool call and approval included, with no
// provider credential anywhere (the backend's environment holds only the stand-ins' stub keys).

const database = useTestDatabase();
let models: StubModels;
let t: TestBackend;
let api: string;
let owner: TestUser;
let org: string;
let turns: string;

beforeAll(async () => {
  models = await startStubModels();
  t = await createTestBackend(database(), { env: models.env, providers: { maxRetries: 0 } });
  api = `${(await t.backend.listen(0, '127.0.0.1')).url}/api/v1`;
  owner = await signUp(t.api, 'testing-entry');
  org = await createOrganization(t.api, owner);
  turns = `${api}/organizations/${org}/flows-actors/systems/todo-assistant/turns`;
});
afterAll(async () => {
  await t?.close();
  await models?.close();
});

const typesOf = (events: readonly TurnEvent[]) =>
  events.map((event) => event.type).filter((type) => type !== 'text_delta');
const textOf = (events: readonly TurnEvent[]) =>
  events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('');

describe('@wildo/backend-api/testing', () => {
  it('names tools as the model sees them', () => {
    expect(modelToolName('resource.todos.update')).toBe('resource_todos_update');
  });

  it('streams a turn in which the stand-in model calls a gated tool, and the rest once a person approves', async () => {
    const created = await t.api.post(`/api/v1/organizations/${org}/todos`).set(owner.auth).send({ title: 'Buy milk' });
    expect(created.status).toBe(201);
    const id: string = created.body.data._id;

    const message = `call ${modelToolName('resource.todos.update')} ${JSON.stringify({ id, title: 'Buy oat milk' })}`;
    const turn = await postTurn(turns, { token: owner.token, message });
    expect(turn.status).toBe(200);
    expect(typesOf(turn.events)).toEqual(['execution', 'tool_call', 'approval_required', 'turn_completed']);
    expect(turn.events.find((event) => event.type === 'tool_call')).toMatchObject({
      functionRef: 'resource.todos.update',
      arguments: { id, title: 'Buy oat milk' },
    });
    const [approval] = pendingApprovalsOf(turn.events);
    if (!approval) throw new Error('the turn should wait for an approval');
    expect(approval.approvalToken).toEqual(expect.any(String));

    // A decision that does not carry the request's token is refused, and leaves the request pending.
    const forged = await decideApproval(api, {
      token: owner.token,
      approval: { approvalId: approval.approvalId, approvalToken: 'forged' },
      decision: 'approve',
    });
    expect(forged).toMatchObject({ status: 403, events: [] });

    const rest = await decideApproval(api, { token: owner.token, approval, decision: 'approve' });
    expect(rest.status).toBe(200);
    expect(typesOf(rest.events)).toEqual(['execution', 'approval_decided', 'tool_result', 'turn_completed']);
    expect(rest.events.find((event) => event.type === 'tool_result')).toMatchObject({
      outcome: { ok: true, result: { _id: id, title: 'Buy oat milk' } },
    });
    expect(textOf(rest.events)).toContain('The tool returned:');
    expect(models.anthropic.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer stub-key',
      'Bearer stub-key',
    ]);
  });

  it('echoes a message that asks for no tool', async () => {
    const turn = await postTurn(turns, { token: owner.token, message: 'Hello there' });
    expect(typesOf(turn.events)).toEqual(['execution', 'turn_completed']);
    expect(textOf(turn.events)).toBe('Echo: Hello there');
  });

  it('gives every tool call of the stand-in models its own id, so later tool lines never replace earlier ones', async () => {
    const created = await t.api.post(`/api/v1/organizations/${org}/todos`).set(owner.auth).send({ title: 'Tea' });
    const args = JSON.stringify({ id: created.body.data._id as string, title: 'Green tea' });
    const message = `call ${modelToolName('resource.todos.update')} ${args}`;
    const ids: unknown[] = [];
    for (let i = 0; i < 2; i += 1) {
      const turn = await postTurn(turns, { token: owner.token, message });
      expect(turn.status).toBe(200);
      const call = turn.events.find((event) => event.type === 'tool_call') as { toolCallId?: unknown } | undefined;
      ids.push(call?.toolCallId);
    }
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });
});
