import { describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganization,
  signUp,
  signUpAppAdmin,
  type TestUser,
} from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

const database = useTestDatabase();

/** Two organizations, each with an admin (A, B), and a todo in A. */
async function twoTenants(t: TestBackend) {
  const a = await signUp(t.api, 'a');
  const b = await signUp(t.api, 'b');
  const orgA = await createOrganization(t.api, a, 'A');
  const orgB = await createOrganization(t.api, b, 'B');
  const created = await t.api
    .post(`/api/v1/organizations/${orgA}/todos`)
    .set(a.auth)
    .send({ title: 'A secret plan', priority: 4 });
  expect(created.status).toBe(201);
  return { a, b, orgA, orgB, todo: created.body.data as { _id: string; title: string; version: number } };
}

async function readAsOwner(t: TestBackend, owner: TestUser, orgId: string, id: string) {
  const res = await t.api.get(`/api/v1/organizations/${orgId}/todos/${id}`).set(owner.auth);
  expect(res.status).toBe(200);
  return res.body.data as Record<string, unknown>;
}

describe('tenant isolation over REST', () => {
  it('answers not-found to another organization reading a todo through its own organization path', async () => {
    await using t = await createTestBackend(database());
    const { a, b, orgA, orgB, todo } = await twoTenants(t);
    expect((await t.api.get(`/api/v1/organizations/${orgA}/todos/${todo._id}`).set(a.auth)).status).toBe(200);
    const res = await t.api.get(`/api/v1/organizations/${orgB}/todos/${todo._id}`).set(b.auth);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toContain('A secret plan');
  });

  it('answers not-found to a non-member addressing the other organization directly', async () => {
    await using t = await createTestBackend(database());
    const { b, orgA, todo } = await twoTenants(t);
    const res = await t.api.get(`/api/v1/organizations/${orgA}/todos/${todo._id}`).set(b.auth);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('A secret plan');
  });

  it('never lists another organization’s todos', async () => {
    await using t = await createTestBackend(database());
    const { a, b, orgA, orgB, todo } = await twoTenants(t);
    const own = await t.api.get(`/api/v1/organizations/${orgA}/todos`).set(a.auth);
    expect(own.body.data.map((r: { _id: string }) => r._id)).toContain(todo._id);
    const foreignPath = await t.api.get(`/api/v1/organizations/${orgA}/todos`).set(b.auth);
    expect(foreignPath.status).toBe(404);
    const ownPath = await t.api.get(`/api/v1/organizations/${orgB}/todos`).set(b.auth);
    expect(ownPath.status).toBe(200);
    expect(ownPath.body.data).toEqual([]);
    const search = await t.api
      .post(`/api/v1/organizations/${orgB}/todos/search`)
      .set(b.auth)
      .send({ query: 'secret plan' });
    expect(search.status).toBe(200);
    expect(search.body.data).toEqual([]);
  });

  it('refuses another organization’s update and leaves the row unchanged', async () => {
    await using t = await createTestBackend(database());
    const { a, b, orgA, orgB, todo } = await twoTenants(t);
    const control = await t.api
      .put(`/api/v1/organizations/${orgA}/todos/${todo._id}`)
      .set(a.auth)
      .send({ priority: 5 });
    expect(control.status).toBe(200);
    const before = await readAsOwner(t, a, orgA, todo._id);
    for (const [orgId, who] of [
      [orgB, b],
      [orgA, b],
    ] as const) {
      const res = await t.api
        .put(`/api/v1/organizations/${orgId}/todos/${todo._id}`)
        .set(who.auth)
        .send({ title: 'pwned' });
      expect(res.status).toBe(404);
    }
    expect(await readAsOwner(t, a, orgA, todo._id)).toEqual(before);
  });

  it('refuses another organization’s delete and leaves the row in place', async () => {
    await using t = await createTestBackend(database());
    const { a, b, orgA, orgB, todo } = await twoTenants(t);
    const before = await readAsOwner(t, a, orgA, todo._id);
    expect((await t.api.delete(`/api/v1/organizations/${orgB}/todos/${todo._id}`).set(b.auth)).status).toBe(404);
    expect((await t.api.delete(`/api/v1/organizations/${orgA}/todos/${todo._id}`).set(b.auth)).status).toBe(404);
    expect(await readAsOwner(t, a, orgA, todo._id)).toEqual(before);
    const control = await t.api.delete(`/api/v1/organizations/${orgA}/todos/${todo._id}`).set(a.auth);
    expect(control.status).toBe(200);
  });

  it('refuses a custom operation on another organization’s record', async () => {
    await using t = await createTestBackend(database());
    const { a, b, orgA, orgB, todo } = await twoTenants(t);
    expect(
      (await t.api.post(`/api/v1/organizations/${orgB}/todos/${todo._id}/complete`).set(b.auth).send({})).status,
    ).toBe(404);
    expect((await readAsOwner(t, a, orgA, todo._id)).status).toBe('todo');
    const control = await t.api
      .post(`/api/v1/organizations/${orgA}/todos/${todo._id}/complete`)
      .set(a.auth)
      .send({ note: 'done' });
    expect(control.status).toBe(200);
    expect(control.body.data).toMatchObject({ status: 'done', completionNote: 'done' });
  });

  it('refuses a reference to another organization’s record', async () => {
    await using t = await createTestBackend(database());
    const { a, b, orgA, orgB } = await twoTenants(t);
    const docA = await t.api
      .post(`/api/v1/organizations/${orgA}/knowledge-documents`)
      .set(a.auth)
      .send({ title: 'Policy' });
    expect(docA.status).toBe(201);
    const control = await t.api
      .post(`/api/v1/organizations/${orgA}/todos`)
      .set(a.auth)
      .send({ title: 'Read it', relatedDocumentId: docA.body.data._id });
    expect(control.status).toBe(201);
    const res = await t.api
      .post(`/api/v1/organizations/${orgB}/todos`)
      .set(b.auth)
      .send({ title: 'Link it', relatedDocumentId: docA.body.data._id });
    expect(res.status).toBe(400);
    expect(res.body.error.problems).toEqual([
      { path: 'relatedDocumentId', expected: 'the id of an existing knowledge-documents record' },
    ]);
  });
});

describe('hostile input over REST', () => {
  async function member(t: TestBackend) {
    const user = await signUp(t.api);
    const orgId = await createOrganization(t.api, user);
    return { user, base: `/api/v1/organizations/${orgId}/todos` };
  }

  it('accepts a well-formed create (control for the refusals below)', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    expect(
      (
        await t.api
          .post(base)
          .set(user.auth)
          .send({ title: 'ok', checklist: [{ label: 'x', done: false }] })
      ).status,
    ).toBe(201);
  });

  it('refuses unknown fields at the top and nested, naming them with the declared fields but never their values', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const res = await t.api
      .post(base)
      .set(user.auth)
      .send({ title: 'ok', isAdmin: 'value-never-echoed', checklist: [{ label: 'x', done: false, evilKey: 1 }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', reason: 'input_invalid' });
    expect(res.body.error.problems).toEqual([
      { path: 'checklist[0].evilKey', expected: 'a declared field: label, done' },
      {
        path: 'isAdmin',
        expected: 'a declared field: title, description, status, priority, assignee, checklist, relatedDocumentId',
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('value-never-echoed');
  });

  it('reports an unknown field whose name is not a plain identifier at its parent, without repeating it', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    for (const key of ['<img src=x onerror=alert(1)>', 'k'.repeat(65), 'spaced key', 'ключ']) {
      const res = await t.api
        .post(base)
        .set(user.auth)
        .send({ title: 'ok', [key]: 1 });
      expect(res.status).toBe(400);
      expect(res.body.error.problems).toEqual([{ path: '(root)', expected: 'no undeclared fields' }]);
      expect(JSON.stringify(res.body)).not.toContain(key);
    }
  });

  it('refuses system and read-only fields in a write as not writable (no ownership or id smuggling)', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const res = await t.api.post(base).set(user.auth).send({
      title: 'x',
      organizationId: 'other',
      _id: 'mine',
      createdByUserId: 'someone',
      completedAt: '2026-01-01T00:00:00Z',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.problems).toEqual(
      ['organizationId', '_id', 'createdByUserId', 'completedAt'].map((path) => ({
        path,
        expected: 'not writable: read-only field',
      })),
    );
    const todo = await t.api.post(base).set(user.auth).send({ title: 'x' });
    expect(todo.status).toBe(201);
    const patch = await t.api
      .put(`${base}/${todo.body.data._id as string}`)
      .set(user.auth)
      .send({ completionNote: 'forged', version: 9 });
    expect(patch.status).toBe(400);
    expect(patch.body.error.problems).toEqual(
      expect.arrayContaining(
        ['completionNote', 'version'].map((path) => ({ path, expected: 'not writable: read-only field' })),
      ),
    );
    expect(JSON.stringify(patch.body)).not.toContain('forged');
  });

  it('refuses wrong types without coercing or echoing them', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const res = await t.api
      .post(base)
      .set(user.auth)
      .send({ title: 12345, priority: '3', status: 'sneaky-status-value' });
    expect(res.status).toBe(400);
    const problems = res.body.error.problems as { path: string; expected: string }[];
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'title', expected: 'string' },
        { path: 'priority', expected: 'number' },
        { path: 'status', expected: 'one of: "todo", "in_progress", "done"' },
      ]),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/12345|sneaky-status-value/);
  });

  it('refuses malformed JSON with a code and no echo', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const res = await t.api
      .post(base)
      .set(user.auth)
      .set('content-type', 'application/json')
      .send('{"title": "oops-unclosed');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('MALFORMED_JSON');
    expect(JSON.stringify(res.body)).not.toContain('oops-unclosed');
  });

  it('refuses a 2 MB body with 413', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const res = await t.api
      .post(base)
      .set(user.auth)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ title: 'x', description: 'y'.repeat(2 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a body that is not JSON with 415', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const res = await t.api.post(base).set(user.auth).set('content-type', 'text/plain').send('title=x');
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses undeclared and repeated query parameters', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    expect((await t.api.get(base).set(user.auth).query({ status: 'todo', limit: '5' })).status).toBe(200);
    const unknown = await t.api.get(`${base}?company=value-never-echoed&$where=1`).set(user.auth);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.problems).toEqual([
      { path: 'company', expected: 'a declared filter: status, priority, assignee (or limit, cursor)' },
      { path: '(query)', expected: 'no undeclared parameters' },
    ]);
    expect(JSON.stringify(unknown.body)).not.toMatch(/value-never-echoed|\$where/);
    const badStatus = await t.api.get(`${base}?status=value-never-echoed`).set(user.auth);
    expect(badStatus.body.error.problems).toEqual([
      { path: 'status', expected: 'one of: "todo", "in_progress", "done"' },
    ]);
    expect((await t.api.get(`${base}?status=todo&status=done`).set(user.auth)).status).toBe(400);
    expect((await t.api.get(`${base}?limit=100000`).set(user.auth)).status).toBe(400);
    expect((await t.api.get(`${base}?priority=abc`).set(user.auth)).status).toBe(400);
  });

  it('refuses a forged cursor as invalid input, not a server error', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const res = await t.api
      .get(base)
      .set(user.auth)
      .query({ cursor: 'eyJzZXEiOiInOyBEUk9QIFRBQkxFIHJfdG9kb3M7LS0ifQ' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('serves a resource under the API prefix in any letter case, as Express mounts routers, and only under it', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const created = await t.api.post(base).set(user.auth).send({ title: 'Case' });
    expect(created.status).toBe(201);
    const upper = await t.api.get(`${base.replace('/api/v1', '/API/V1')}/${created.body.data._id}`).set(user.auth);
    expect(upper.status).toBe(200);
    expect(upper.body.data.title).toBe('Case');
    const outside = await t.api.get(`${base.replace('/api/v1', '/api/v10')}/${created.body.data._id}`).set(user.auth);
    expect(outside.status).toBe(404);
  });

  it('answers a conditional GET whose ETag still matches with 304, and any other GET with the record', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const created = await t.api.post(base).set(user.auth).send({ title: 'Fresh' });
    const path = `${base}/${created.body.data._id}`;
    const full = await t.api.get(path).set(user.auth);
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(full.headers['content-length']).toBe(String(Buffer.byteLength(full.text)));
    const unchanged = await t.api
      .get(path)
      .set(user.auth)
      .set('if-none-match', full.headers.etag as string);
    expect(unchanged.status).toBe(304);
    const stale = await t.api.get(path).set(user.auth).set('if-none-match', '"999"');
    expect(stale.status).toBe(200);
    expect(stale.body.data.title).toBe('Fresh');
  });

  it('answers HEAD with the status and headers of GET', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const created = await t.api.post(base).set(user.auth).send({ title: 'Head' });
    const path = `${base}/${created.body.data._id}`;
    const get = await t.api.get(path).set(user.auth);
    const head = await t.api.head(path).set(user.auth);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it('answers a path with broken percent-encoding as a malformed request, not a server error', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const res = await t.api.get(`${base}/%E0%A4%A`).set(user.auth);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  it('caps the problems reported for one input at 16', async () => {
    await using t = await createTestBackend(database());
    const { user, base } = await member(t);
    const checklist = Array.from({ length: 40 }, () => ({ label: 7, done: 'no' }));
    const res = await t.api.post(base).set(user.auth).send({ title: 'x', checklist });
    expect(res.status).toBe(400);
    expect(res.body.error.problems.length).toBeLessThanOrEqual(16);
  });
});

describe('authentication and roles over REST', () => {
  it('refuses a missing token with 401 and a challenge', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    const orgId = await createOrganization(t.api, user);
    expect((await t.api.get(`/api/v1/organizations/${orgId}/todos`).set(user.auth)).status).toBe(200);
    const res = await t.api.get(`/api/v1/organizations/${orgId}/todos`);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'no_credential' });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('refuses a tampered token with 401', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    const orgId = await createOrganization(t.api, user);
    const [header, payload, signature] = user.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    // Flip one character inside the signature (not its last ones, whose spare bits may decode identically).
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    for (const token of [`${header}.${forgedPayload}.${signature}`, `${header}.${payload}.${flipped}`, 'not-a-jwt']) {
      const res = await t.api.get(`/api/v1/organizations/${orgId}/todos`).set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'credential_invalid' });
    }
  });

  it('refuses an unsigned (alg none) token with 401', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api);
    const [, payload] = user.token.split('.') as [string, string];
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    expect((await t.api.get('/api/v1/auth/me').set('Authorization', `Bearer ${none}`)).status).toBe(401);
    expect((await t.api.get('/api/v1/auth/me').set(user.auth)).status).toBe(200);
  });

  it('refuses an unknown authorization scheme instead of treating it as anonymous', async () => {
    await using t = await createTestBackend(database());
    const res = await t.api.get('/api/v1/organizations').set('Authorization', 'Basic dXNlcjpwYXNz');
    expect(res.status).toBe(401);
  });

  it('refuses a role below the operation’s roles with 403 and leaves the row in place', async () => {
    await using t = await createTestBackend(database());
    const admin = await signUp(t.api, 'admin');
    const member = await signUp(t.api, 'member');
    const manager = await signUp(t.api, 'manager');
    const orgId = await createOrganization(t.api, admin);
    await addMember(t.api, admin, orgId, member, 'ORG_MEMBER');
    await addMember(t.api, admin, orgId, manager, 'ORG_MANAGER');
    const base = `/api/v1/organizations/${orgId}/todos`;
    const todo = (await t.api.post(base).set(member.auth).send({ title: 'keep me' })).body.data;
    const refused = await t.api.delete(`${base}/${todo._id}`).set(member.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', reason: 'role_refused' });
    expect((await t.api.get(`${base}/${todo._id}`).set(member.auth)).status).toBe(200);
    expect((await t.api.delete(`${base}/${todo._id}`).set(manager.auth)).status).toBe(200);
  });

  it('refuses application-admin writes to a plain user, and admits an admin', async () => {
    await using t = await createTestBackend(database());
    const user = await signUp(t.api, 'user');
    const refused = await t.api.post('/api/v1/announcements').set(user.auth).send({ title: 'Hi', body: 'all' });
    expect(refused.status).toBe(403);
    const reader = await signUp(t.api, 'reader');
    const admin = await signUpAppAdmin(t);
    const created = await t.api.post('/api/v1/announcements').set(admin.auth).send({ title: 'Hi', body: 'all' });
    expect(created.status).toBe(201);
    const read = await t.api.get(`/api/v1/announcements/${created.body.data._id}`).set(reader.auth);
    expect(read.status).toBe(200);
  });

  it('keeps user-scoped records private to their owner', async () => {
    await using t = await createTestBackend(database());
    const alice = await signUp(t.api, 'alice');
    const bob = await signUp(t.api, 'bob');
    const view = await t.api
      .post('/api/v1/saved-views')
      .set(alice.auth)
      .send({ name: 'Mine', criteria: { status: 'todo' } });
    expect(view.status).toBe(201);
    expect((await t.api.get(`/api/v1/saved-views/${view.body.data._id}`).set(alice.auth)).status).toBe(200);
    expect((await t.api.get(`/api/v1/saved-views/${view.body.data._id}`).set(bob.auth)).status).toBe(404);
    expect((await t.api.get('/api/v1/saved-views').set(bob.auth)).body.data).toEqual([]);
    expect(
      (await t.api.put(`/api/v1/saved-views/${view.body.data._id}`).set(bob.auth).send({ pinned: true })).status,
    ).toBe(404);
  });
});
