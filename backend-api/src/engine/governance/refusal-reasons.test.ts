import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { referenceApplication } from '../../modules/index.js';
import { anthropicStubOptions, eventsOf, postStream } from '../../testing/agents.fixtures.js';
import { AnthropicStub, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { createOrganization } from '../../testing/identity.fixtures.js';
import { callTool, MCP_PATH } from '../../testing/mcp.fixtures.js';
import { useTestDatabase } from '../../testing/test-backend.js';
import type { TokenBudgetAdministration, TokenBudgetService } from '../agents/budgets/index.js';
import { defineBackendApplication } from '../bootstrap/backend-domain-module.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import { REFUSAL_REASONS, type RefusalReason } from '../errors/index.js';
import type { PrincipalDirectory } from '../identity/principal-directory.js';
import type { SqlDatabase } from '../persistence/index.js';
import { approvalProbesModule } from '../approvals/approval-probes.fixtures.js';
import { agency, governanceProbesApplication } from './governance-probes.fixtures.js';
import { governedStack, type GovernedStack } from './governance-surfaces.fixtures.js';

// The denial-reason test: one scenario per refusal reason, each run through the real stack (REST, MCP, an agent
// turn), and the reasons the scenarios observe are exactly the declared closed list. A helper that adds a reason
// adds its row here.

const database = useTestDatabase();
const model = new AnthropicStub();
let stack: GovernedStack;

beforeAll(async () => {
  await model.start();
  stack = await governedStack(database(), {
    application: defineBackendApplication({
      ...referenceApplication,
      modules: [...referenceApplication.modules, ...governanceProbesApplication.modules, approvalProbesModule],
    }),
    ...anthropicStubOptions(model),
  });
});
afterAll(async () => {
  await stack?.t.close();
  await model.close();
});

/** The reason of a refused REST answer. */
function restReason(res: { status: number; body: { error?: { reason?: RefusalReason } } }): RefusalReason | undefined {
  expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
  return res.body.error?.reason;
}

/** The reason of a refused MCP tool result. */
function mcpReason(result: { isError: boolean; _meta?: Record<string, unknown> }): RefusalReason | undefined {
  expect(result.isError).toBe(true);
  const meta = Object.values(result._meta ?? {})[0] as { reason?: RefusalReason } | undefined;
  return meta?.reason;
}

const turnsOf = (orgId: string) => `/api/v1/organizations/${orgId}/flows-actors/systems/todo-assistant/turns`;
const stays = (operation: string) => `/api/v1/organizations/${stack.orgId}/stays/${operation}`;
const as = (caller: 'member' | 'manager') => stack.people[caller].auth;
const refund = () => `/api/v1/organizations/${stack.orgId}/refunds/issue`;

/** Asks for a refund (which needs a person's approval) and returns the pending approval's id. */
async function pendingRefund(body: Record<string, unknown>): Promise<string> {
  const res = await stack.t.api.post(refund()).set(as('member')).send(body);
  expect(res.status).toBe(428);
  return res.body.error.approval.id as string;
}

/** One scenario per reason: what it does, and the reason its refusal carried. */
const SCENARIOS: Record<RefusalReason, () => Promise<RefusalReason | undefined>> = {
  no_credential: async () => restReason(await stack.t.api.post(stays('details')).send({ stayId: 'ws-1001' })),
  credential_invalid: async () =>
    restReason(
      await stack.t.api.post(stays('details')).set('Authorization', 'Bearer forged').send({ stayId: 'ws-1001' }),
    ),
  principal_denied: async () =>
    mcpReason(await callTool(stack.t.api, MCP_PATH, stack.machineKey, 'stays__cancel', { bookingId: 'B-1' })),
  principal_not_allowed: async () =>
    restReason(await stack.t.api.post(stays('book')).set(as('member')).send({ quoteId: 'Q-ok' })),
  identity_not_evaluable: async () => {
    // The directory answers the authentication and then fails when the call's context reads it (fail closed).
    const directory = stack.t.backend.container.get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory);
    const read = directory.getUser.bind(directory);
    const peek = vi.spyOn(directory as Required<PrincipalDirectory>, 'peekUser').mockReturnValue(undefined);
    let reads = 0;
    const get = vi.spyOn(directory, 'getUser').mockImplementation(async (userId) => {
      reads += 1;
      if (reads >= 2) throw new Error('directory down');
      return read(userId);
    });
    try {
      return restReason(await stack.t.api.post(stays('details')).set(as('member')).send({ stayId: 'ws-1001' }));
    } finally {
      peek.mockRestore();
      get.mockRestore();
    }
  },
  role_refused: async () => restReason(await stack.t.api.post(stays('payout')).set(as('member')).send({ amount: 10 })),
  rate_limit_exceeded: async () => {
    const ask = () => stack.t.api.post(stays('availability')).set(as('member')).send({ propertyId: 'ws-1001' });
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(200);
    return restReason(await ask());
  },
  lifecycle_blocked: async () =>
    mcpReason(
      await callTool(stack.t.api, MCP_PATH, stack.machineKey, 'stays__search-classic', { destination: 'Lisbon' }),
    ),
  input_invalid: async () =>
    restReason(
      await stack.t.api
        .post(stays('details'))
        .set(as('member'))
        .send({ stayId: { $ne: 1 } }),
    ),
  approval_required: async () => {
    // The todo assistant proposes a gated rename; a decision that does not carry the request's token is refused.
    const todos = `/api/v1/organizations/${stack.orgId}/todos`;
    const id = (await stack.t.api.post(todos).set(as('member')).send({ title: 'Buy milk' })).body.data._id as string;
    model.enqueue(toolCallsReply([{ id: 'call-1', name: 'resource_todos_update', arguments: { id, title: 'x' } }]));
    const turn = await postStream(stack.t.api, turnsOf(stack.orgId), as('member'), { message: 'Rename it.' });
    const [approval] = eventsOf(turn.turn, 'approval_required');
    if (!approval) throw new Error('the turn should wait for a decision');
    return restReason(
      await stack.t.api
        .post(`/api/v1/flows-actors/approvals/${approval.approval.approvalId}/decision`)
        .set(as('member'))
        .send({ approvalToken: 'forged', decision: 'approve' }),
    );
  },
  approval_pending: async () => {
    const body = { bookingId: 'B-10', amount: 5 };
    const id = await pendingRefund(body);
    return restReason(await stack.t.api.post(refund()).set(as('member')).set('Approval-Id', id).send(body));
  },
  approval_denied: async () => {
    const body = { bookingId: 'B-11', amount: 5 };
    const id = await pendingRefund(body);
    await stack.t.api.post(`/api/v1/approvals/${id}/decision`).set(as('member')).send({ decision: 'deny' });
    return restReason(await stack.t.api.post(refund()).set(as('member')).set('Approval-Id', id).send(body));
  },
  approval_invalid: async () =>
    restReason(
      await stack.t.api
        .post(refund())
        .set(as('member'))
        .set('Approval-Id', '00000000-0000-4000-8000-000000000000')
        .send({ bookingId: 'B-12', amount: 5 }),
    ),
  approval_not_evaluable: async () => {
    // The approvals table cannot be read or written: the call is refused (fail closed), never run.
    const db = stack.t.backend.container.get<SqlDatabase>(SAAS_SERVICE_TYPES.Database);
    const query = db.query.bind(db);
    const spy = vi
      .spyOn(db, 'query')
      .mockImplementation(((text: string, params?: readonly unknown[]) =>
        text.includes('wildo_operation_approvals')
          ? Promise.reject(new Error('database unreachable'))
          : query(text, params)) as typeof db.query);
    try {
      return restReason(await stack.t.api.post(refund()).set(as('member')).send({ bookingId: 'B-13', amount: 5 }));
    } finally {
      spy.mockRestore();
    }
  },
  step_up_required: async () =>
    restReason(await stack.t.api.post(stays('payout')).set(as('manager')).send({ amount: 10 })),
  budget_exhausted: async () => {
    // An organization of its own, whose plan's monthly allowance is used up: the turn is refused before the model.
    const orgId = await createOrganization(stack.t.api, stack.people.manager, 'Spent');
    const budgets = stack.t.backend.container.get<TokenBudgetAdministration & TokenBudgetService>(
      SAAS_SERVICE_TYPES.TokenBudgetService,
    );
    const tenant = { kind: 'organization' as const, organizationId: orgId };
    await budgets.assignPlan(tenant, 'todos.team');
    await budgets.recordConsumption(tenant, 10_000_000);
    return restReason(await stack.t.api.post(turnsOf(orgId)).set(as('manager')).send({ message: 'How many todos?' }));
  },
};

describe('the closed list of refusal reasons', () => {
  const observed = new Set<RefusalReason | undefined>();

  for (const [reason, scenario] of Object.entries(SCENARIOS) as [RefusalReason, () => Promise<RefusalReason>][]) {
    it(`${reason}: its scenario is refused with it, before the agency is asked`, async () => {
      const before = [...agency.calls.values()].reduce((sum, n) => sum + n, 0);
      const seen = await scenario();
      observed.add(seen);
      expect(seen).toBe(reason);
      const after = [...agency.calls.values()].reduce((sum, n) => sum + n, 0);
      // The rate-limit scenario's three admitted calls are its control; nothing refused reached the agency.
      expect(after - before).toBe(reason === 'rate_limit_exceeded' ? 3 : 0);
    });
  }

  it('is exactly what the scenarios observed: no reason without a scenario, no scenario outside the list', () => {
    expect(observed).toEqual(new Set(REFUSAL_REASONS));
    expect(new Set(Object.keys(SCENARIOS))).toEqual(new Set(REFUSAL_REASONS));
  });
});
