import { describe, expect, it } from 'vitest';
import { A2A_PATH, a2aResult, a2aToken, v1Message } from '../../testing/a2a.fixtures.js';
import { postStream, useAssistantBackend } from '../../testing/agents.fixtures.js';
import { signUpAppAdmin } from '../../testing/identity.fixtures.js';
import { textReply, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { callTool, delegatedToken, MCP_BACKEND_OPTIONS, MCP_PATH } from '../../testing/mcp.fixtures.js';
import { useTestDatabase } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { AuditTrail } from './index.js';

// A scripted run of executions and refusals over REST, MCP, A2A and agent tools leaves exactly one entry per call,
// none holding a value the calls carried; an entry edited or removed in the database is found by the chain check.

const database = useTestDatabase();
const assistant = useAssistantBackend(database, 'auditor', MCP_BACKEND_OPTIONS);
const CANARY = 'canary-4f1d-secret-value';
const trail = () => assistant.t.backend.container.get<AuditTrail>(SAAS_SERVICE_TYPES.AuditTrail);

interface Row {
  seq: string;
  operation: string;
  surface: string;
  outcome: string;
  reason: string | null;
  phase: string;
  chain_index: string | null;
  text: string;
}

async function rowsAfter(seq: string): Promise<Row[]> {
  await trail().settle();
  const { rows } = await database().query<Row>(
    `SELECT seq, operation, surface, outcome, reason, phase, chain_index, to_jsonb(e)::text AS text
       FROM wildo_audit_entries e WHERE seq > $1 ORDER BY seq`,
    [seq],
  );
  return rows;
}

async function lastSeq(): Promise<string> {
  await trail().settle();
  const { rows } = await database().query<{ seq: string }>(
    'SELECT coalesce(max(seq), 0) AS seq FROM wildo_audit_entries',
  );
  return String(rows[0]?.seq ?? '0');
}

describe('the audit trail', () => {
  it('holds exactly one entry per call on every surface, executed or refused, and no value any call carried', async () => {
    const { t, owner, orgId, turns, stub } = assistant;
    const todos = `/api/v1/organizations/${orgId}/todos`;
    const mark = await lastSeq();

    // REST: an execution, a read, a refusal of the input contract.
    const created = await t.api
      .post(todos)
      .set(owner.auth)
      .send({ title: `${CANARY}-rest` });
    expect(created.status).toBe(201);
    const id = created.body.data._id as string;
    expect((await t.api.get(`${todos}/${id}`).set(owner.auth)).status).toBe(200);
    expect((await t.api.post(todos).set(owner.auth).send({ title: CANARY, secret: CANARY })).status).toBe(400);
    // MCP: an execution and a refusal (a record that does not exist).
    const mcp = await delegatedToken(t.api, owner);
    expect((await callTool(t.api, MCP_PATH, mcp, 'todos__read', { organizationId: orgId, todoId: id })).isError).toBe(
      false,
    );
    const missing = await callTool(t.api, MCP_PATH, mcp, 'todos__read', {
      organizationId: orgId,
      todoId: `${CANARY}x`,
    });
    expect(missing.isError).toBe(true);
    // An agent's tool call in a conversation.
    stub.enqueue(toolCallsReply([{ id: 'call-1', name: 'resource_todos_read', arguments: { id } }]));
    stub.enqueue(textReply('It is there.'));
    await postStream(t.api, turns, owner.auth, { message: `Read ${CANARY}` });
    // An A2A task whose agent calls a tool.
    stub.enqueue(toolCallsReply([{ id: 'call-2', name: 'resource_todos_read', arguments: { id } }]));
    stub.enqueue(textReply('Still there.'));
    await a2aResult(
      t.api,
      A2A_PATH,
      'SendMessage',
      { message: v1Message(`Check ${CANARY}`), metadata: { skillId: 'todo-assistant' } },
      await a2aToken(t.api, owner),
    );

    const rows = await rowsAfter(mark);
    expect(rows.map((r) => [r.surface, r.operation, r.outcome, r.reason ?? r.phase])).toEqual([
      ['rest', 'todos.create', 'executed', 'projection'],
      ['rest', 'todos.read', 'executed', 'projection'],
      ['rest', 'todos.create', 'refused', 'input_invalid'],
      ['mcp', 'todos.read', 'executed', 'projection'],
      ['mcp', 'todos.read', 'refused', 'service'],
      ['tool', 'todos.read', 'executed', 'projection'],
      ['a2a', 'todos.read', 'executed', 'projection'],
    ]);
    for (const row of rows) expect(row.text).not.toContain(CANARY);
    expect(rows.every((r) => r.chain_index !== null)).toBe(true);
  });

  it('is queryable by the application’s admins with filters, a page at a time, and by no one else', async () => {
    const { t, owner } = assistant;
    const admin = await signUpAppAdmin(t);
    const refused = await t.api.get('/api/v1/audit/entries?outcome=refused&reason=input_invalid').set(admin.auth);
    expect(refused.status).toBe(200);
    expect(refused.body.data.length).toBeGreaterThan(0);
    for (const entry of refused.body.data) expect(entry).toMatchObject({ outcome: 'refused', reason: 'input_invalid' });
    const first = await t.api.get('/api/v1/audit/entries?operation=todos.read&limit=2').set(admin.auth);
    expect(first.body.data).toHaveLength(2);
    const next = await t.api
      .get(`/api/v1/audit/entries?operation=todos.read&limit=2&cursor=${first.body.nextCursor}`)
      .set(admin.auth);
    expect(next.body.data.length).toBeGreaterThan(0);
    expect(Number(next.body.data[0].seq)).toBeLessThan(Number(first.body.data[1].seq));
    const future = await t.api.get('/api/v1/audit/entries?from=2999-01-01T00:00:00Z').set(admin.auth);
    expect(future.body.data).toEqual([]);
    const badCursor = await t.api.get('/api/v1/audit/entries?cursor=x%27').set(admin.auth);
    expect(badCursor.status).toBe(400);
    expect((await t.api.get('/api/v1/audit/entries').set(owner.auth)).status).toBe(403);
    expect((await t.api.get('/api/v1/audit/chain').set(admin.auth)).body.data).toMatchObject({ ok: true });
  });

  it('refuses to change or remove an entry, and the chain check names the first one changed or removed anyway', async () => {
    const db = database();
    expect((await trail().verify()).ok).toBe(true);
    await expect(db.query(`UPDATE wildo_audit_entries SET outcome = 'executed' WHERE chain_index = 3`)).rejects.toThrow(
      /append-only/,
    );
    await expect(db.query('DELETE FROM wildo_audit_entries WHERE chain_index = 3')).rejects.toThrow(/append-only/);
    // Someone with the database owner's rights switches the guard off.
    await db.query('ALTER TABLE wildo_audit_entries DISABLE TRIGGER wildo_audit_append_only');
    const { rows } = await db.query<{ outcome: string }>(
      'SELECT outcome FROM wildo_audit_entries WHERE chain_index = 3',
    );
    await db.query(`UPDATE wildo_audit_entries SET outcome = 'forged' WHERE chain_index = 3`);
    expect((await trail().verify()).firstBroken).toMatchObject({
      chainIndex: '3',
      problem: expect.stringContaining('changed'),
    });
    await db.query('UPDATE wildo_audit_entries SET outcome = $1 WHERE chain_index = 3', [rows[0]?.outcome]);
    expect((await trail().verify()).ok).toBe(true);
    await db.query('DELETE FROM wildo_audit_entries WHERE chain_index = 2');
    expect((await trail().verify()).firstBroken).toMatchObject({
      chainIndex: '2',
      problem: expect.stringContaining('missing'),
    });
    const { rows: last } = await db.query<{ n: string }>('SELECT max(chain_index) AS n FROM wildo_audit_entries');
    await db.query('DELETE FROM wildo_audit_entries WHERE chain_index >= 2');
    expect((await trail().verify()).firstBroken).toMatchObject({
      chainIndex: '2',
      problem: expect.stringContaining('removed from its end'),
    });
    expect(Number(last[0]?.n)).toBeGreaterThan(2);
  });
});
