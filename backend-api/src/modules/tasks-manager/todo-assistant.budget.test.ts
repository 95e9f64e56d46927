import { beforeAll, describe, expect, it } from 'vitest';
import { SAAS_SERVICE_TYPES, type TokenBudgetAdministration } from '../../engine/index.js';
import {
  assistantOrganization,
  eventsOf,
  ManualClock,
  postStream,
  useAssistantBackend,
} from '../../testing/agents.fixtures.js';
import { signInAgain, type TestUser } from '../../testing/identity.fixtures.js';
import { textReply } from '../../testing/llm-stubs/index.js';
import { useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

/** The `todos.team` plan of the reference product catalogue grants this many tokens a month. */
const TEAM_ALLOWANCE = 100_000;

describe('todo assistant: the monthly token budget of the organization’s plan', () => {
  const clock = new ManualClock(new Date('2026-03-30T12:00:00Z'));
  const assistant = useAssistantBackend(useTestDatabase(), 'budget-owner', { clock });
  const { stub } = assistant;
  let t: TestBackend;
  let owner: TestUser;
  let orgId: string;
  let turns: string;

  beforeAll(async () => {
    ({ t, owner, orgId, turns } = assistant);
    await t.backend.container
      .get<TokenBudgetAdministration>(SAAS_SERVICE_TYPES.TokenBudgetService)
      .assignPlan({ kind: 'organization', organizationId: orgId }, 'todos.team');
  });

  const turn = () => postStream(t.api, turns, owner.auth, { message: 'How many todos do I have?' });
  const consumed = async () =>
    (
      await t.backend.container
        .get<TokenBudgetAdministration>(SAAS_SERVICE_TYPES.TokenBudgetService)
        .status({ kind: 'organization', organizationId: orgId }, clock.now())
    ).consumedTokens;

  it('admits turns while consumed < allowance, then refuses with budget_exhausted until the next UTC month', async () => {
    // Each model call reports 60,000 tokens: the first turn leaves 40,000, the second runs over (running turns finish).
    const expensive = () => textReply('Three.', { usage: { inputTokens: 50_000, outputTokens: 10_000 } });
    stub.enqueue(expensive());
    const first = await turn();
    expect(first.status).toBe(200);
    expect(eventsOf(first.turn, 'turn_completed')[0]!.usage.totalTokens).toBe(60_000);
    expect(await consumed()).toBe(60_000);

    stub.enqueue(expensive());
    const second = await turn();
    expect(second.status).toBe(200);
    expect(await consumed()).toBe(120_000);

    const refused = await turn();
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', reason: 'budget_exhausted' });
    expect(refused.body.error.message).toContain(`120000 of ${TEAM_ALLOWANCE}`);
    // Retry-After points at the first instant of April (UTC): 36 hours from the fake now.
    expect(Number(refused.headers['retry-after'])).toBe(36 * 3600);
    expect(stub.requests).toHaveLength(2);

    clock.set('2026-04-01T00:00:01Z');
    owner = await signInAgain(t.api, owner);
    stub.enqueue(textReply('Still three.', { usage: { inputTokens: 100, outputTokens: 20 } }));
    const nextMonth = await turn();
    expect(nextMonth.status).toBe(200);
    expect(await consumed()).toBe(120);
  });

  it('leaves an organization without a granting plan unlimited', async () => {
    const other = await assistantOrganization(t.api, 'no-plan');
    stub.enqueue(textReply('Hi.', { usage: { inputTokens: 500_000, outputTokens: 1 } }), textReply('Hi again.'));
    expect((await postStream(t.api, other.turns, other.owner.auth, { message: 'Hi' })).status).toBe(200);
    expect((await postStream(t.api, other.turns, other.owner.auth, { message: 'Hi' })).status).toBe(200);
  });
});
