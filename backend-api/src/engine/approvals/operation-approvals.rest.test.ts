import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestDatabase } from '../../testing/test-backend.js';
import { defineBackendApplication } from '../bootstrap/backend-domain-module.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import { agency, governanceProbesApplication } from '../governance/governance-probes.fixtures.js';
import { governedStack, type GovernedStack } from '../governance/governance-surfaces.fixtures.js';
import type { SqlDatabase } from '../persistence/index.js';
import { approvalProbesModule } from './approval-probes.fixtures.js';

// REST: a call to an operation that declares approval answers 428 with a pending approval; the person decides on the
// approvals page; the same call retried with `Approval-Id` runs once. Nothing reaches the agency before that.

const database = useTestDatabase();
let stack: GovernedStack;

beforeAll(async () => {
  stack = await governedStack(database(), {
    application: defineBackendApplication({
      ...governanceProbesApplication,
      modules: [...governanceProbesApplication.modules, approvalProbesModule],
    }),
  });
});
afterAll(() => stack?.t.close());

const issue = () => `/api/v1/organizations/${stack.orgId}/refunds/issue`;
const as = (caller: 'member' | 'manager') => stack.people[caller].auth;
const refunds = () => agency.reached('refund');

/** Asks for a refund as `caller`; returns the pending approval's id. */
async function pending(caller: 'member' | 'manager', body: Record<string, unknown>): Promise<string> {
  const res = await stack.t.api.post(issue()).set(as(caller)).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(428);
  expect(res.body.error.reason).toBe('approval_required');
  return res.body.error.approval.id as string;
}

const decide = (caller: 'member' | 'manager', id: string, decision: 'approve' | 'deny') =>
  stack.t.api.post(`/api/v1/approvals/${id}/decision`).set(as(caller)).send({ decision });

describe('REST approval of an operation that declares it', () => {
  it('answers 428 with the pending approval and the page to decide it on; nothing reaches the agency', async () => {
    const before = refunds();
    const res = await stack.t.api.post(issue()).set(as('member')).send({ bookingId: 'B-1', amount: 40 });
    expect(res.status).toBe(428);
    expect(res.body.error).toMatchObject({
      code: 'PRECONDITION_REQUIRED',
      reason: 'approval_required',
      approval: { status: 'pending', decideAt: expect.stringContaining('/approvals#') },
    });
    expect(refunds()).toBe(before);
  });

  it('lists the pending approval for its person with the surface, display name, arguments and input schema', async () => {
    const id = await pending('member', { bookingId: 'B-list', amount: 12 });
    const list = await stack.t.api.get('/api/v1/approvals').set(as('member'));
    expect(list.status).toBe(200);
    const entry = (list.body.data as { id: string }[]).find((a) => a.id === id);
    expect(entry).toMatchObject({
      surface: 'rest',
      operation: 'refunds.issue',
      title: 'Issue: Refunds',
      effect: 'irreversible',
      arguments: { bookingId: 'B-list', amount: 12 },
      inputSchema: { type: 'object', properties: { bookingId: { type: 'string' } } },
    });
    const others = await stack.t.api.get('/api/v1/approvals').set(as('manager'));
    expect((others.body.data as { id: string }[]).some((a) => a.id === id)).toBe(false);
  });

  it('runs the exact approved call once, after its person approved it', async () => {
    const body = { bookingId: 'B-2', amount: 50 };
    const id = await pending('member', body);
    const waiting = await stack.t.api.post(issue()).set(as('member')).set('Approval-Id', id).send(body);
    expect(waiting.status).toBe(428);
    expect(waiting.body.error.reason).toBe('approval_pending');
    expect((await decide('member', id, 'approve')).status).toBe(200);
    const before = refunds();
    const ran = await stack.t.api.post(issue()).set(as('member')).set('Approval-Id', id).send(body);
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    expect(ran.body.data).toEqual({ refunded: 50 });
    expect(refunds()).toBe(before + 1);
    const again = await stack.t.api.post(issue()).set(as('member')).set('Approval-Id', id).send(body);
    expect(again.status).toBe(403);
    expect(again.body.error.reason).toBe('approval_invalid');
    expect(refunds()).toBe(before + 1);
  });

  it('refuses an approval presented with altered input, or by another person, and keeps it for the right call', async () => {
    const body = { bookingId: 'B-3', amount: 10 };
    const id = await pending('member', body);
    expect((await decide('member', id, 'approve')).status).toBe(200);
    const before = refunds();
    const altered = await stack.t.api
      .post(issue())
      .set(as('member'))
      .set('Approval-Id', id)
      .send({ ...body, amount: 10_000 });
    expect(altered.status).toBe(403);
    expect(altered.body.error.reason).toBe('approval_invalid');
    const foreign = await stack.t.api.post(issue()).set(as('manager')).set('Approval-Id', id).send(body);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.reason).toBe('approval_invalid');
    expect(refunds()).toBe(before);
    // Neither refusal spent it: the approved call still runs.
    const ran = await stack.t.api.post(issue()).set(as('member')).set('Approval-Id', id).send(body);
    expect(ran.status).toBe(200);
  });

  it('refuses an expired approval', async () => {
    const body = { bookingId: 'B-4', amount: 10 };
    const id = await pending('member', body);
    expect((await decide('member', id, 'approve')).status).toBe(200);
    await database().query(
      `UPDATE wildo_operation_approvals SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    const before = refunds();
    const late = await stack.t.api.post(issue()).set(as('member')).set('Approval-Id', id).send(body);
    expect(late.status).toBe(403);
    expect(late.body.error).toMatchObject({ reason: 'approval_invalid', message: expect.stringContaining('expired') });
    expect(refunds()).toBe(before);
  });

  it('refuses a denied call, and lets only its own person decide, from a first-party session', async () => {
    const body = { bookingId: 'B-5', amount: 10 };
    const id = await pending('member', body);
    expect((await decide('manager', id, 'approve')).status).toBe(404);
    const viaClient = await stack.t.api
      .post(`/api/v1/approvals/${id}/decision`)
      .set('Authorization', await stack.mcpAuth('member'))
      .send({ decision: 'approve' });
    // A delegated token is for the MCP server's audience: the REST API does not even take it.
    expect(viaClient.status).toBe(401);
    expect((await decide('member', id, 'deny')).status).toBe(200);
    expect((await decide('member', id, 'approve')).status).toBe(409);
    const denied = await stack.t.api.post(issue()).set(as('member')).set('Approval-Id', id).send(body);
    expect(denied.status).toBe(403);
    expect(denied.body.error.reason).toBe('approval_denied');
  });

  it('refuses a machine credential, which no person can approve for', async () => {
    const res = await stack.t.api
      .post(issue())
      .set('Authorization', stack.machineKey)
      .send({ bookingId: 'B-6', amount: 10 });
    expect(res.status).toBe(403);
    expect(res.body.error.reason).toBe('principal_not_allowed');
  });

  it('fails closed with 503 when the approvals cannot be read or written', async () => {
    const db = stack.t.backend.container.get<SqlDatabase>(SAAS_SERVICE_TYPES.Database);
    const query = db.query.bind(db);
    const spy = vi
      .spyOn(db, 'query')
      .mockImplementation(((text: string, params?: readonly unknown[]) =>
        text.includes('wildo_operation_approvals')
          ? Promise.reject(new Error('database unreachable'))
          : query(text, params)) as typeof db.query);
    try {
      const before = refunds();
      const res = await stack.t.api.post(issue()).set(as('member')).send({ bookingId: 'B-7', amount: 10 });
      expect(res.status).toBe(503);
      expect(res.body.error.reason).toBe('approval_not_evaluable');
      expect(refunds()).toBe(before);
    } finally {
      spy.mockRestore();
    }
  });
});
