import { beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../engine/index.js';
import { eventsOf, postStream, useAssistantBackend } from '../../testing/agents.fixtures.js';
import { addMember, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { textReply, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

// The example module's behaviour: REST CRUD and the `close` instance operation, and the assistant closing a ticket
// only after the person approves, through the operation's own handler.
const READ = 'resource_tickets_read';
const CLOSE = 'resource_tickets_close';

describe('the support desk', () => {
  const desk = useAssistantBackend(useTestDatabase(), 'desk-owner');
  const { stub } = desk;
  let t: TestBackend;
  let owner: TestUser;
  let base: string;
  let turns: string;
  beforeAll(() => {
    ({ t, owner } = desk);
    base = `/api/v1/organizations/${desk.orgId}/tickets`;
    turns = `/api/v1/organizations/${desk.orgId}/flows-actors/systems/support-desk/turns`;
  });

  async function fileTicket(title: string, user = owner): Promise<string> {
    const res = await t.api.post(base).set(user.auth).send({ title });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data._id as string;
  }

  const ticket = async (id: string) => (await t.api.get(`${base}/${id}`).set(owner.auth)).body.data;

  describe('over REST', () => {
    it('creates, reads, updates, lists and deletes a ticket', async () => {
      const created = await t.api.post(base).set(owner.auth).send({ title: 'Printer jam', body: 'Tray 2' });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({
        title: 'Printer jam',
        status: 'open',
        resolution: null,
        organizationId: desk.orgId,
        version: 1,
      });
      const id = created.body.data._id;
      expect((await t.api.get(`${base}/${id}`).set(owner.auth)).body.data).toMatchObject({ _id: id, body: 'Tray 2' });
      const updated = await t.api.put(`${base}/${id}`).set(owner.auth).send({ title: 'Printer jam on floor 3' });
      expect(updated.body.data).toMatchObject({ title: 'Printer jam on floor 3', status: 'open', version: 2 });
      const listed = await t.api.get(base).set(owner.auth);
      expect(listed.body.data.map((record: { _id: string }) => record._id)).toContain(id);
      expect((await t.api.delete(`${base}/${id}`).set(owner.auth)).status).toBe(200);
      expect((await t.api.get(`${base}/${id}`).set(owner.auth)).status).toBe(404);
    });

    it('refuses a caller-sent status or resolution: only `close` writes them', async () => {
      const res = await t.api.post(base).set(owner.auth).send({ title: 'x', status: 'closed' });
      expect(res.status).toBe(400);
      expect(res.body.error.reason).toBe('input_invalid');
      const id = await fileTicket('y');
      expect((await t.api.put(`${base}/${id}`).set(owner.auth).send({ resolution: 'done' })).status).toBe(400);
      expect(await ticket(id)).toMatchObject({ status: 'open', resolution: null });
    });

    it('closes an open ticket with its resolution, and refuses to close it twice', async () => {
      const id = await fileTicket('VPN down');
      const closed = await t.api
        .post(`${base}/${id}/close`)
        .set(owner.auth)
        .send({ resolution: 'Restarted the gateway' });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      expect(closed.body.data).toMatchObject({
        _id: id,
        status: 'closed',
        resolution: 'Restarted the gateway',
        version: 2,
      });
      const again = await t.api.post(`${base}/${id}/close`).set(owner.auth).send({ resolution: 'Again' });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('CONFLICT');
      expect(await ticket(id)).toMatchObject({ resolution: 'Restarted the gateway', version: 2 });
    });

    it('refuses a close without a resolution or of an unknown ticket, with structured errors', async () => {
      const id = await fileTicket('Slow laptop');
      const missing = await t.api.post(`${base}/${id}/close`).set(owner.auth).send({});
      expect(missing.status).toBe(400);
      expect(missing.body.error.problems).toEqual([expect.objectContaining({ path: 'resolution' })]);
      expect((await t.api.post(`${base}/no-such-ticket/close`).set(owner.auth).send({ resolution: 'x' })).status).toBe(
        404,
      );
      expect(await ticket(id)).toMatchObject({ status: 'open' });
    });

    it('lists by status: the declared filter', async () => {
      const open = await fileTicket('Open one');
      const done = await fileTicket('Closed one');
      await t.api.post(`${base}/${done}/close`).set(owner.auth).send({ resolution: 'Fixed' });
      const closedOnes = (await t.api.get(base).set(owner.auth).query({ status: 'closed' })).body.data.map(
        (r: { _id: string }) => r._id,
      );
      expect(closedOnes).toContain(done);
      expect(closedOnes).not.toContain(open);
      expect((await t.api.get(base).set(owner.auth).query({ status: 'pending' })).status).toBe(400);
    });

    it('lets a member file and close but not delete; a manager deletes', async () => {
      const member = await signUp(t.api, 'desk-member');
      await addMember(t.api, owner, desk.orgId, member, 'ORG_MEMBER');
      const id = await fileTicket('Broken chair', member);
      expect((await t.api.post(`${base}/${id}/close`).set(member.auth).send({ resolution: 'Replaced' })).status).toBe(
        200,
      );
      const refused = await t.api.delete(`${base}/${id}`).set(member.auth);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
      const manager = await signUp(t.api, 'desk-manager');
      await addMember(t.api, owner, desk.orgId, manager, 'ORG_MANAGER');
      expect((await t.api.delete(`${base}/${id}`).set(manager.auth)).status).toBe(200);
    });

    it('keeps tickets inside their organization', async () => {
      const id = await fileTicket('Internal only');
      const stranger = await signUp(t.api, 'desk-stranger');
      expect((await t.api.get(`${base}/${id}`).set(stranger.auth)).status).toBe(404);
      expect((await t.api.get(`${base}/${id}`).set(owner.auth)).status).toBe(200);
    });
  });

  describe('the assistant', () => {
    /** Scripts "read the ticket, then close it" and runs the turn up to its approval. */
    async function proposeClose(id: string, resolution: string, callId: string): Promise<PendingApproval> {
      stub.enqueue(
        toolCallsReply([{ id: `${callId}-read`, name: READ, arguments: { id } }]),
        toolCallsReply([{ id: callId, name: CLOSE, arguments: { id, resolution } }], { text: 'I propose closing it.' }),
      );
      const res = await postStream(t.api, turns, owner.auth, { message: 'Close the ticket, it is fixed' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [read] = eventsOf(res.turn, 'tool_result');
      expect(read).toMatchObject({ functionRef: 'resource.tickets.read', outcome: { ok: true, result: { _id: id } } });
      const [approval] = eventsOf(res.turn, 'approval_required');
      expect(approval, JSON.stringify(res.turn)).toBeDefined();
      expect(approval!.approval).toMatchObject({
        functionRef: 'resource.tickets.close',
        toolCallId: callId,
        arguments: { id, resolution },
      });
      expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'awaiting_approval' });
      return approval!.approval;
    }

    const decide = (approval: PendingApproval, decision: 'approve' | 'deny') =>
      postStream(t.api, `/api/v1/flows-actors/approvals/${approval.approvalId}/decision`, owner.auth, {
        approvalToken: approval.approvalToken,
        decision,
      });

    it('pauses the close before any effect and closes the ticket through its operation once approved', async () => {
      const id = await fileTicket('Projector flickers');
      const approval = await proposeClose(id, 'Replaced the cable', 'call-close');
      expect(await ticket(id)).toMatchObject({ status: 'open', resolution: null });

      stub.enqueue(textReply('Closed it.'));
      const resumed = await decide(approval, 'approve');
      expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
      expect(eventsOf(resumed.turn, 'approval_decided')[0]).toMatchObject({
        decision: 'approve',
        toolCallId: 'call-close',
      });
      expect(eventsOf(resumed.turn, 'tool_result')[0]).toMatchObject({
        functionRef: 'resource.tickets.close',
        outcome: { ok: true, result: { _id: id, status: 'closed', resolution: 'Replaced the cable' } },
      });
      expect(eventsOf(resumed.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
      expect(await ticket(id)).toMatchObject({ status: 'closed', resolution: 'Replaced the cable' });
    });

    it('runs the operation’s own checks after approval: a ticket closed meanwhile is refused, not closed again', async () => {
      const id = await fileTicket('Coffee machine');
      const approval = await proposeClose(id, 'Descaled', 'call-stale');
      expect(
        (await t.api.post(`${base}/${id}/close`).set(owner.auth).send({ resolution: 'Bought a new one' })).status,
      ).toBe(200);

      stub.enqueue(textReply('It was already closed.'));
      const resumed = await decide(approval, 'approve');
      expect(eventsOf(resumed.turn, 'tool_result')[0]!.outcome).toMatchObject({
        ok: false,
        error: { code: 'CONFLICT' },
      });
      expect(await ticket(id)).toMatchObject({ resolution: 'Bought a new one' });
    });

    it('leaves the ticket open when the person denies the close', async () => {
      const id = await fileTicket('Door badge');
      const approval = await proposeClose(id, 'Reset the badge', 'call-deny');
      stub.enqueue(textReply('Understood, I left it open.'));
      const denied = await decide(approval, 'deny');
      expect(eventsOf(denied.turn, 'tool_result')[0]!.outcome).toMatchObject({ ok: false, error: { code: 'DENIED' } });
      expect(await ticket(id)).toMatchObject({ status: 'open', resolution: null });
    });
  });
});
