import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicStubOptions, assistantOrganization, eventsOf, postStream } from '../../testing/agents.fixtures.js';
import type { TestUser } from '../../testing/identity.fixtures.js';
import { AnthropicStub, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

describe('todo assistant without a provider credential', () => {
  const db = useTestDatabase();
  const stub = new AnthropicStub();
  let t: TestBackend;
  let owner: TestUser;
  let orgId: string;
  let turns: string;

  beforeAll(async () => {
    await stub.start();
    // The test backend's default environment has no ANTHROPIC_API_KEY.
    // Its 503s are the behaviour under test; any other 5xx still fails the file (see afterAll).
    t = await createTestBackend(db(), { allowServerErrors: true });
    ({ owner, orgId, turns } = await assistantOrganization(t.api, 'no-credential'));
  });
  afterAll(async () => {
    expect(t.serverErrors.filter((line) => !line.endsWith('-> 503'))).toEqual([]);
    await t?.close();
    await stub.close();
  });

  function expectUnavailable(res: { status: number; headers: Record<string, string>; body: any; events: unknown[] }) {
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.events).toEqual([]);
    expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', requestId: expect.any(String) });
    expect(res.body.error.message).toMatch(/not configured/);
    expect(JSON.stringify(res.body)).not.toMatch(/ANTHROPIC_API_KEY|stack/);
  }

  it('answers 503 before opening the stream, and starts no conversation', async () => {
    expectUnavailable(await postStream(t.api, turns, owner.auth, { message: 'Hello?' }));
    const pending = await t.api.get('/api/v1/flows-actors/approvals').set(owner.auth);
    expect(pending.status).toBe(200);
    expect(pending.body.data).toEqual([]);
  });

  it('refuses a decision with 503 before applying it: the approval stays pending for when the provider is back', async () => {
    // Control: the same database with a (stub) provider configured proposes a gated rename.
    const configured = await createTestBackend(db(), anthropicStubOptions(stub));
    let approval: { approvalId: string; approvalToken: string };
    try {
      const todo = await configured.api
        .post(`/api/v1/organizations/${orgId}/todos`)
        .set(owner.auth)
        .send({ title: 'Buy milk' });
      expect(todo.status).toBe(201);
      stub.enqueue(
        toolCallsReply([
          {
            id: 'call-rename',
            name: 'resource_todos_update',
            arguments: { id: todo.body.data._id, title: 'Buy oat milk' },
          },
        ]),
      );
      const proposed = await postStream(configured.api, turns, owner.auth, { message: 'Rename it' });
      expect(proposed.status).toBe(200);
      approval = eventsOf(proposed.turn, 'approval_required')[0]!.approval;
    } finally {
      await configured.close();
    }
    const decision = { approvalToken: approval.approvalToken, decision: 'approve' };
    expectUnavailable(
      await postStream(t.api, `/api/v1/flows-actors/approvals/${approval.approvalId}/decision`, owner.auth, decision),
    );
    const pending = await t.api.get('/api/v1/flows-actors/approvals').set(owner.auth);
    expect(pending.body.data.map((p: { approvalId: string }) => p.approvalId)).toEqual([approval.approvalId]);
  });
});
