import { describe, expect, it } from 'vitest';
import { createOrganization, signUp } from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase } from '../../testing/test-backend.js';

const database = useTestDatabase();

describe('todos over REST', () => {
  it('creates, reads, updates, lists and deletes a todo', async () => {
    await using t = await createTestBackend(database());
    const owner = await signUp(t.api);
    const orgId = await createOrganization(t.api, owner);
    const base = `/api/v1/organizations/${orgId}/todos`;
    const created = await t.api.post(base).set(owner.auth).send({ title: 'Ship it', priority: 2 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'Ship it', priority: 2, status: 'todo', organizationId: orgId, createdByUserId: owner.userId, version: 1 });
    const id = created.body.data._id;
    const read = await t.api.get(`${base}/${id}`).set(owner.auth);
    expect(read.status).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    const updated = await t.api.put(`${base}/${id}`).set(owner.auth).send({ status: 'in_progress' });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({ title: 'Ship it', status: 'in_progress', version: 2 });
    const list = await t.api.get(base).set(owner.auth).query({ status: 'in_progress' });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ data: [{ _id: id }], nextCursor: null });
    const removed = await t.api.delete(`${base}/${id}`).set(owner.auth);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await t.api.get(`${base}/${id}`).set(owner.auth)).status).toBe(404);
  });
});
