import { describe, expect, it } from 'vitest';
import { createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

const database = useTestDatabase();

async function workspace(t: TestBackend): Promise<{ user: TestUser; base: string }> {
  const user = await signUp(t.api);
  const orgId = await createOrganization(t.api, user);
  return { user, base: `/api/v1/organizations/${orgId}/todos` };
}

describe('todos over REST', () => {
  it('creates, reads, updates, lists and deletes a todo', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    const created = await t.api.post(base).set(user.auth).send({ title: 'Ship it', priority: 2 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      title: 'Ship it',
      priority: 2,
      status: 'todo',
      createdByUserId: user.userId,
      version: 1,
    });
    const id = created.body.data._id;
    const read = await t.api.get(`${base}/${id}`).set(user.auth);
    expect(read.status).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    const updated = await t.api.put(`${base}/${id}`).set(user.auth).send({ status: 'in_progress' });
    expect(updated.body.data).toMatchObject({ title: 'Ship it', status: 'in_progress', version: 2 });
    const list = await t.api.get(base).set(user.auth).query({ status: 'in_progress' });
    expect(list.body).toMatchObject({ data: [{ _id: id }], nextCursor: null });
    expect((await t.api.delete(`${base}/${id}`).set(user.auth)).status).toBe(200);
    expect((await t.api.get(`${base}/${id}`).set(user.auth)).status).toBe(404);
  });

  it('patches only the fields sent: defaults never reset a stored value', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    const id = (await t.api.post(base).set(user.auth).send({ title: 'x', priority: 5, status: 'in_progress' })).body
      .data._id;
    const res = await t.api.put(`${base}/${id}`).set(user.auth).send({ title: 'y' });
    expect(res.body.data).toMatchObject({ title: 'y', priority: 5, status: 'in_progress' });
  });

  it('refuses an empty patch and server-written fields', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    const id = (await t.api.post(base).set(user.auth).send({ title: 'x' })).body.data._id;
    const empty = await t.api.put(`${base}/${id}`).set(user.auth).send({});
    expect(empty.status).toBe(400);
    expect(empty.body.error.problems).toEqual([{ path: '(root)', expected: 'at least one field to change' }]);
    const readOnly = await t.api.post(base).set(user.auth).send({ title: 'x', completedAt: '2026-01-01T00:00:00Z' });
    expect(readOnly.status).toBe(400);
  });

  it('honours If-Match: a stale version is refused and the record unchanged', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    const id = (await t.api.post(base).set(user.auth).send({ title: 'x' })).body.data._id;
    expect(
      (await t.api.put(`${base}/${id}`).set(user.auth).set('If-Match', '"1"').send({ title: 'first' })).status,
    ).toBe(200);
    const stale = await t.api.put(`${base}/${id}`).set(user.auth).set('If-Match', '"1"').send({ title: 'second' });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('PRECONDITION_FAILED');
    expect((await t.api.get(`${base}/${id}`).set(user.auth)).body.data.title).toBe('first');
    expect((await t.api.delete(`${base}/${id}`).set(user.auth).set('If-Match', '"1"')).status).toBe(412);
    expect((await t.api.delete(`${base}/${id}`).set(user.auth).set('If-Match', '"2"')).status).toBe(200);
  });

  it('keeps every concurrent patch when the engine retries conflicts itself', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    const id = (await t.api.post(base).set(user.auth).send({ title: 'x', checklist: [] })).body.data._id;
    const results = await Promise.all([
      t.api.put(`${base}/${id}`).set(user.auth).send({ description: 'a' }),
      t.api.put(`${base}/${id}`).set(user.auth).send({ priority: 1 }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect((await t.api.get(`${base}/${id}`).set(user.auth)).body.data).toMatchObject({
      description: 'a',
      priority: 1,
      version: 3,
    });
  });

  it('pages through every record exactly once, newest first, with a bounded page size', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(
        (
          await t.api
            .post(base)
            .set(user.auth)
            .send({ title: `t${i}` })
        ).body.data._id,
      );
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await t.api
        .get(base)
        .set(user.auth)
        .query({ limit: '3', ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.data.map((r: { _id: string }) => r._id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters by declared fields with typed values', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    await t.api.post(base).set(user.auth).send({ title: 'low', priority: 1 });
    await t.api.post(base).set(user.auth).send({ title: 'high', priority: 5, assignee: user.userId });
    expect(
      (await t.api.get(base).set(user.auth).query({ priority: '5' })).body.data.map((r: { title: string }) => r.title),
    ).toEqual(['high']);
    expect((await t.api.get(base).set(user.auth).query({ assignee: user.userId })).body.data).toHaveLength(1);
  });

  it('searches titles and descriptions, best match first', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    await t.api
      .post(base)
      .set(user.auth)
      .send({ title: 'Renew the passport', description: 'passport office opens at nine' });
    await t.api.post(base).set(user.auth).send({ title: 'Buy milk' });
    const res = await t.api.post(`${base}/search`).set(user.auth).send({ query: 'passport' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { title: string }) => r.title)).toEqual(['Renew the passport']);
    const filtered = await t.api
      .post(`${base}/search`)
      .set(user.auth)
      .send({ query: 'passport', filters: { status: 'done' } });
    expect(filtered.body.data).toEqual([]);
  });

  it('completes a todo through its custom operation and counts todos per status', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    const id = (await t.api.post(base).set(user.auth).send({ title: 'a' })).body.data._id;
    await t.api.post(base).set(user.auth).send({ title: 'b', status: 'in_progress' });
    const done = await t.api.post(`${base}/${id}/complete`).set(user.auth).send({ note: 'shipped' });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ _id: id, status: 'done', completionNote: 'shipped', version: 2 });
    expect(done.body.data.completedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const stats = await t.api.post(`${base}/stats`).set(user.auth).send({});
    expect(stats.body.data).toEqual({ total: 2, byStatus: { todo: 0, in_progress: 1, done: 1 } });
  });

  it('charges an operation’s own rate policy per principal', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    const other = await workspace(t);
    for (let i = 0; i < 30; i++) expect((await t.api.post(`${base}/stats`).set(user.auth).send({})).status).toBe(200);
    const refused = await t.api.post(`${base}/stats`).set(user.auth).send({});
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', reason: 'rate_limit_exceeded' });
    expect((await t.api.post(`${other.base}/stats`).set(other.user.auth).send({})).status).toBe(200);
  });

  it('answers a known path with an unsupported method with 405 and Allow', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await workspace(t);
    const res = await t.api.patch(base).set(user.auth).send({});
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
  });
});
