import { beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_LIFETIME_MS, type PendingApproval } from '../../engine/index.js';
import { eventsOf, ManualClock, postStream, useAssistantBackend } from '../../testing/agents.fixtures.js';
import { addMember, signInAgain, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { textReply, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { organizationApiKey } from '../../testing/mcp.fixtures.js';
import { useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

const READ = 'resource_todos_read';
const RENAME = 'resource_todos_update';

describe('todo assistant: a streaming turn with tools and an approval gate', () => {
  const clock = new ManualClock();
  const assistant = useAssistantBackend(useTestDatabase(), 'owner', { clock });
  const { stub } = assistant;
  let t: TestBackend;
  let owner: TestUser;
  let orgId: string;
  let turns: string;
  beforeAll(() => void ({ t, owner, orgId, turns } = assistant));

  async function createTodo(title: string): Promise<string> {
    const res = await t.api.post(`/api/v1/organizations/${orgId}/todos`).set(owner.auth).send({ title });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data._id as string;
  }

  async function titleOf(id: string): Promise<string> {
    const res = await t.api.get(`/api/v1/organizations/${orgId}/todos/${id}`).set(owner.auth);
    expect(res.status).toBe(200);
    return res.body.data.title as string;
  }

  /** Scripts "read the todo, then rename it" and runs the turn; returns the paused approval. */
  async function proposeRename(
    id: string,
    title: string,
    callId: string,
    user = owner,
  ): Promise<{ approval: PendingApproval; executionId: string }> {
    stub.enqueue(
      toolCallsReply([{ id: `${callId}-read`, name: READ, arguments: { id } }]),
      toolCallsReply([{ id: callId, name: RENAME, arguments: { id, title } }]),
    );
    const res = await postStream(t.api, turns, user.auth, { message: `Rename my todo to "${title}"` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [approval] = eventsOf(res.turn, 'approval_required');
    expect(approval, JSON.stringify(res.turn)).toBeDefined();
    return { approval: approval!.approval, executionId: eventsOf(res.turn, 'execution')[0]!.executionId };
  }

  const decide = (approval: PendingApproval, user: TestUser, body: Record<string, unknown> = {}) =>
    postStream(t.api, `/api/v1/flows-actors/approvals/${approval.approvalId}/decision`, user.auth, {
      approvalToken: approval.approvalToken,
      decision: 'approve',
      ...body,
    });

  it('streams the read, pauses the rename before any effect, and renames only once the owner approves', async () => {
    const id = await createTodo('Buy milk');
    stub.enqueue(
      toolCallsReply([{ id: 'call-read', name: READ, arguments: { id } }]),
      toolCallsReply([{ id: 'call-rename', name: RENAME, arguments: { id, title: 'Buy oat milk' } }], {
        text: 'I will rename it.',
      }),
    );
    const res = await postStream(t.api, turns, owner.auth, { message: 'Rename "Buy milk" to "Buy oat milk"' });
    expect(res.status).toBe(200);
    expect(res.turn.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'execution',
        'tool_call',
        'tool_result',
        'text_delta',
        'approval_required',
        'turn_completed',
      ]),
    );
    expect(res.turn[0]!.type).toBe('execution');
    const [read] = eventsOf(res.turn, 'tool_result');
    expect(read).toMatchObject({
      toolCallId: 'call-read',
      functionRef: 'resource.todos.read',
      outcome: { ok: true, result: { _id: id, title: 'Buy milk' } },
    });
    const [approval] = eventsOf(res.turn, 'approval_required');
    expect(approval!.approval).toMatchObject({
      functionRef: 'resource.todos.update',
      toolCallId: 'call-rename',
      arguments: { id, title: 'Buy oat milk' },
    });
    expect(Date.parse(approval!.approval.expiresAt) - Date.parse(approval!.approval.createdAt)).toBe(
      APPROVAL_LIFETIME_MS,
    );
    expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'awaiting_approval' });
    // Paused before any effect.
    expect(await titleOf(id)).toBe('Buy milk');
    const pending = await t.api.get('/api/v1/flows-actors/approvals').set(owner.auth);
    expect(pending.body.data.map((p: PendingApproval) => p.approvalId)).toContain(approval!.approval.approvalId);

    stub.enqueue(textReply('Renamed to "Buy oat milk".'));
    const resumed = await decide(approval!.approval, owner);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(eventsOf(resumed.turn, 'approval_decided')[0]).toMatchObject({
      decision: 'approve',
      toolCallId: 'call-rename',
    });
    expect(eventsOf(resumed.turn, 'tool_result')[0]).toMatchObject({
      functionRef: 'resource.todos.update',
      outcome: { ok: true, result: { title: 'Buy oat milk' } },
    });
    expect(eventsOf(resumed.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    expect(await titleOf(id)).toBe('Buy oat milk');
    // The model saw the whole conversation, loaded server-side: the read result and the approved rename's result.
    const lastRequest = stub.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(lastRequest.messages)).toContain('Buy oat milk');
    expect(lastRequest.messages.filter((m) => m.role === 'user').length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a second user’s decision (as not found) and leaves the record unchanged; the owner’s still works', async () => {
    const id = await createTodo('Water plants');
    const { approval } = await proposeRename(id, 'Water the plants', 'call-foreign');
    const colleague = await signUp(t.api, 'colleague');
    await addMember(t.api, owner, orgId, colleague, 'ORG_ADMIN');
    const refused = await decide(approval, colleague);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
    expect(await titleOf(id)).toBe('Water plants');
    const theirs = await t.api.get('/api/v1/flows-actors/approvals').set(colleague.auth);
    expect(theirs.body.data).toEqual([]);

    stub.enqueue(textReply('Done.'));
    const approved = await decide(approval, owner);
    expect(approved.status).toBe(200);
    expect(await titleOf(id)).toBe('Water the plants');
  });

  it('refuses a decision token reused for a different call or argument set; each call’s own token works', async () => {
    const id = await createTodo('Pay rent');
    const first = await proposeRename(id, 'Pay the rent', 'call-a');
    stub.enqueue(textReply('Done.'));
    expect((await decide(first.approval, owner)).status).toBe(200);
    expect(await titleOf(id)).toBe('Pay the rent');

    // Replaying the used decision with other arguments cannot apply them.
    const replay = await decide(first.approval, owner, { modifiedArguments: { id, title: 'Hijacked' } });
    expect(replay.status).toBe(409);
    expect(await titleOf(id)).toBe('Pay the rent');

    // A second pending call with different arguments: the first call's token does not approve it.
    const second = await proposeRename(id, 'Pay rent today', 'call-b');
    const crossed = await decide({ ...second.approval, approvalToken: first.approval.approvalToken }, owner);
    expect(crossed.status).toBe(403);
    expect(crossed.body.error).toMatchObject({ code: 'FORBIDDEN', reason: 'approval_required' });
    expect(await titleOf(id)).toBe('Pay the rent');

    // Its own token, with modified arguments validated against the tool's contract.
    const invalid = await decide(second.approval, owner, { modifiedArguments: { id, title: '' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.reason).toBe('input_invalid');
    stub.enqueue(textReply('Done.'));
    const modified = await decide(second.approval, owner, { modifiedArguments: { id, title: 'Pay rent on Friday' } });
    expect(modified.status).toBe(200);
    expect(eventsOf(modified.turn, 'approval_decided')[0]!.arguments).toEqual({ id, title: 'Pay rent on Friday' });
    expect(await titleOf(id)).toBe('Pay rent on Friday');
  });

  it('refuses an expired approval and closes the call as not run when the conversation goes on', async () => {
    const id = await createTodo('Call mom');
    const { approval, executionId } = await proposeRename(id, 'Call mom on Sunday', 'call-expiring');
    clock.advance(APPROVAL_LIFETIME_MS + 1_000);
    // Tokens were issued on the old clock; sign in again on the new one.
    owner = await signInAgain(t.api, owner);

    const expired = await decide(approval, owner);
    expect(expired.status).toBe(403);
    expect(expired.body.error).toMatchObject({ code: 'FORBIDDEN', reason: 'approval_required' });
    expect(expired.body.error.message).toMatch(/expired/);
    expect(await titleOf(id)).toBe('Call mom');

    // The conversation continues; the lapsed call is answered as not run before the new message.
    stub.enqueue(textReply('OK, I did not rename it.'));
    const next = await postStream(t.api, turns, owner.auth, { message: 'Never mind.', executionId });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(eventsOf(next.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    expect(JSON.stringify(stub.requests.at(-1)!.body)).toContain('NOT_RUN');
  });

  it('lists pending approvals per conversation, and a denial leaves the record as it was', async () => {
    const id = await createTodo('Sort mail');
    const first = await proposeRename(id, 'Sort the mail', 'call-list-1');
    const second = await proposeRename(id, 'Sort letters', 'call-list-2');
    const perConversation = await t.api
      .get(`/api/v1/flows-actors/approvals?executionId=${first.executionId}`)
      .set(owner.auth);
    expect(perConversation.body.data.map((p: PendingApproval) => p.approvalId)).toEqual([first.approval.approvalId]);
    const across = await t.api.get('/api/v1/flows-actors/approvals').set(owner.auth);
    expect(across.body.data.map((p: PendingApproval) => p.approvalId)).toEqual(
      expect.arrayContaining([first.approval.approvalId, second.approval.approvalId]),
    );

    stub.enqueue(textReply('Understood, I left it.'), textReply('Understood, I left it too.'));
    const denied = await decide(first.approval, owner, { decision: 'deny' });
    expect(eventsOf(denied.turn, 'tool_result')[0]!.outcome).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    await decide(second.approval, owner, { decision: 'deny' });
    expect(await titleOf(id)).toBe('Sort mail');
    expect((await t.api.get('/api/v1/flows-actors/approvals').set(owner.auth)).body.data).toEqual([]);
  });

  it('does not let an approval replace authorization: a member removed meanwhile cannot apply it', async () => {
    const id = await createTodo('Renew passport');
    const member = await signUp(t.api, 'leaving-member');
    await addMember(t.api, owner, orgId, member, 'ORG_MEMBER');
    const { approval } = await proposeRename(id, 'Renew the passport', 'call-leaver', member);
    const removed = await t.api.delete(`/api/v1/organizations/${orgId}/members/${member.userId}`).set(owner.auth);
    expect(removed.status).toBeLessThan(300);
    // Their old token was revoked with the membership; even a fresh sign-in cannot apply the approval.
    expect((await decide(approval, member)).status).toBe(401);
    const refused = await decide(approval, await signInAgain(t.api, member));
    expect(refused.status).toBe(404);
    expect(await titleOf(id)).toBe('Renew passport');
  });

  it('refuses a machine principal at the gate; its read still runs', async () => {
    const id = await createTodo('Book flights');
    const key = await organizationApiKey(t.api, owner, orgId, ['ORG_MEMBER']);
    stub.enqueue(
      toolCallsReply([{ id: 'm-read', name: READ, arguments: { id } }]),
      toolCallsReply([{ id: 'm-rename', name: RENAME, arguments: { id, title: 'Book cheap flights' } }]),
      textReply('I cannot rename it without a person.'),
    );
    const res = await postStream(t.api, turns, { Authorization: key }, { message: 'Rename the flights todo' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [read, rename] = eventsOf(res.turn, 'tool_result');
    expect(read!.outcome).toMatchObject({ ok: true, result: { title: 'Book flights' } });
    expect(rename!.outcome).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', reason: 'principal_not_allowed' } });
    expect(eventsOf(res.turn, 'approval_required')).toEqual([]);
    expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    expect(await titleOf(id)).toBe('Book flights');
  });

  it('searches with a query and lists without one, bounded by the tool', async () => {
    await createTodo('Walk the dog');
    await createTodo('Feed the cat');
    stub.enqueue(
      toolCallsReply([{ id: 'q-search', name: READ, arguments: { query: 'dog' } }]),
      toolCallsReply([{ id: 'q-list', name: READ, arguments: { limit: 1 } }]),
      textReply('Found them.'),
    );
    const res = await postStream(t.api, turns, owner.auth, { message: 'What about the dog?' });
    const [search, list] = eventsOf(res.turn, 'tool_result');
    const titles = (search!.outcome as { ok: true; result: { data: { title: string }[] } }).result.data.map(
      (todo) => todo.title,
    );
    expect(titles).toEqual(['Walk the dog']);
    expect(
      (list!.outcome as { ok: true; result: { data: unknown[]; nextCursor: string | null } }).result.data,
    ).toHaveLength(1);
    expect((list!.outcome as { ok: true; result: { nextCursor: string | null } }).result.nextCursor).not.toBeNull();
  });

  it('refuses a read tool call with arguments beyond its contract, without listing anything', async () => {
    stub.enqueue(toolCallsReply([{ id: 'bad-limit', name: READ, arguments: { limit: 500 } }]), textReply('Sorry.'));
    const res = await postStream(t.api, turns, owner.auth, { message: 'List everything' });
    expect(eventsOf(res.turn, 'tool_result')[0]!.outcome).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', reason: 'input_invalid' },
    });
  });

  it('finds a conversation only for its owner: another member continuing it gets not found', async () => {
    stub.enqueue(textReply('Hello!'));
    const first = await postStream(t.api, turns, owner.auth, { message: 'Hi' });
    const executionId = eventsOf(first.turn, 'execution')[0]!.executionId;
    const other = await signUp(t.api, 'other');
    await addMember(t.api, owner, orgId, other, 'ORG_MEMBER');
    const foreign = await postStream(t.api, turns, other.auth, { message: 'Hi', executionId });
    expect(foreign.status).toBe(404);
    expect((await t.api.get(`/api/v1/flows-actors/executions/${executionId}/messages`).set(other.auth)).status).toBe(
      404,
    );
    const transcript = await t.api.get(`/api/v1/flows-actors/executions/${executionId}/messages`).set(owner.auth);
    expect(transcript.status).toBe(200);
    expect(transcript.body.data).toMatchObject({
      executionId,
      status: 'active',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
      ],
    });
    stub.enqueue(textReply('Hello again!'));
    const own = await postStream(t.api, turns, owner.auth, { message: 'Hi again', executionId });
    expect(own.status).toBe(200);
    expect(eventsOf(own.turn, 'execution')[0]!.executionId).toBe(executionId);
  });

  it('refuses a non-member, an unknown system and a malformed body with structured errors', async () => {
    const stranger = await signUp(t.api, 'stranger');
    const outside = await postStream(t.api, turns, stranger.auth, { message: 'Hi' });
    expect(outside.status).toBe(404);
    const unknown = await postStream(
      t.api,
      `/api/v1/organizations/${orgId}/flows-actors/systems/nope/turns`,
      owner.auth,
      { message: 'Hi' },
    );
    expect(unknown.status).toBe(404);
    const extra = await postStream(t.api, turns, owner.auth, { message: 'Hi', userId: 'someone-else' });
    expect(extra.status).toBe(400);
    expect(extra.body.error.reason).toBe('input_invalid');
    const anonymous = await postStream(t.api, turns, {}, { message: 'Hi' });
    expect(anonymous.status).toBe(401);
  });
});
