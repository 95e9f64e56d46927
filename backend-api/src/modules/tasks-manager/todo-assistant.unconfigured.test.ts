import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantOrganization, eventsOf, postStream } from '../../testing/agents.fixtures.js';
import type { TestUser } from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

describe('todo assistant without a provider credential', () => {
  const db = useTestDatabase();
  let t: TestBackend;
  let owner: TestUser;
  let turns: string;

  beforeAll(async () => {
    // The test backend's default environment has no ANTHROPIC_API_KEY.
    t = await createTestBackend(db());
    ({ owner, turns } = await assistantOrganization(t.api, 'no-credential'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('streams the conversation id, then a client-safe 503 error event, and keeps the conversation usable', async () => {
    const res = await postStream(t.api, turns, owner.auth, { message: 'Hello?' });
    expect(res.status).toBe(200);
    expect(res.events.map((e) => e.event)).toEqual(['execution', 'error']);
    expect(res.events[1]!.data.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', requestId: expect.any(String) });
    expect(res.events[1]!.data.error.message).toMatch(/not configured/);
    expect(JSON.stringify(res.events)).not.toMatch(/ANTHROPIC_API_KEY|stack/);

    // The failed turn released the conversation: the next one is admitted (and fails the same way).
    const executionId = eventsOf(res.turn, 'execution')[0]!.executionId;
    const again = await postStream(t.api, turns, owner.auth, { message: 'Still there?', executionId });
    expect(again.status).toBe(200);
    expect(again.events.map((e) => e.event)).toEqual(['execution', 'error']);
  });
});
