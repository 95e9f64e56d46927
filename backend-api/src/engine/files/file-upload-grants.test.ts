import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { ManualClock } from '../../testing/manual-clock.js';
import { organizationApiKey } from '../../testing/mcp.fixtures.js';
import { createTestBackend, openTestSchema, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES as T } from '../container/saas-service-types.tokens.js';
import type { ResourceStore } from '../persistence/resource-store.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import { SqlResourceStore } from '../persistence/sql-resource-store.js';
import { UPLOAD_GRANT_HEADER, type UploadGrantResponse } from './file-upload-grant.schema.js';
import { ATTACHMENT_MAX_BYTES, filesTestApplication, mintGrant, upload } from './files.fixtures.js';

// One backend for the file: upload grants over REST, from minting to the parent write, and each refusal beside
// the call that succeeds.

let database: SqlDatabase;
let t: TestBackend;
const clock = new ManualClock();
let manager: TestUser;
let member: TestUser;
let stranger: TestUser;
let org: string;
let otherOrg: string;

const collection = (organizationId = org) => `/api/v1/organizations/${organizationId}/case-files`;
const text = (name: string, content = `contents of ${name}`) => ({ name, type: 'text/plain', content });

async function createCase(user: TestUser, body: Record<string, unknown> = { title: 'A case' }, organizationId = org) {
  const res = await t.api.post(collection(organizationId)).set(user.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id as string;
}

/** Mints, uploads and returns the produced file id. */
async function uploadedFileId(user: TestUser, grantUrl: string, name: string): Promise<string> {
  const grant = await mintGrant(t.api, user, grantUrl);
  const res = await upload(t.api, grant, text(name));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.file.fileId as string;
}

async function grantTokenCount(): Promise<number> {
  const { rows } = await database.query<{ n: string }>(
    `SELECT count(*) AS n FROM wildo_consumable_tokens WHERE token_type = 'FILE_UPLOAD_GRANT'`,
  );
  return Number(rows[0]?.n);
}

beforeAll(async () => {
  database = await openTestSchema();
  t = await createTestBackend(database, { application: filesTestApplication, clock });
  manager = await signUp(t.api, 'manager');
  org = await createOrganization(t.api, manager);
  member = await signUp(t.api, 'member');
  await addMember(t.api, manager, org, member, 'ORG_MEMBER');
  stranger = await signUp(t.api, 'stranger');
  otherOrg = await createOrganization(t.api, stranger, 'Elsewhere');
});
afterAll(async () => {
  await t.close();
  await database.close();
});

describe('upload grants over REST', () => {
  it('carries one file through the handoff: mint, upload, status redeemed, parent write, read back', async () => {
    const caseId = await createCase(manager);
    const recordUrl = `${collection()}/${caseId}`;
    const grant = await mintGrant(t.api, manager, `${recordUrl}/files/attachments/grant`, {
      name: 'notes.txt',
      mimeType: 'text/plain',
      size: 21,
      expiresInMinutes: 10,
    });
    expect(grant).toMatchObject({
      resourceType: 'case-files',
      operation: 'update',
      field: { name: 'attachments', allowedMimeTypes: ['text/plain', 'application/pdf'], multiple: true },
      uploadUrl: `http://localhost:4241${recordUrl}/files/attachments/upload`,
      uploadHeader: { name: UPLOAD_GRANT_HEADER, value: expect.stringMatching(/^wug_/) },
      expiresInMinutes: 10,
    });
    expect(grant.uploadCommand).toContain(`-F 'file=@./notes.txt;type=text/plain'`);
    expect(grant.uploadCommands.powershell).toContain('curl.exe');
    expect(grant.statusUrl).toMatch(/^http:\/\/localhost:4241\/api\/v1\/files\/upload-grants\/[\w-]{43}$/);
    expect(grant.statusUrl).not.toContain(grant.uploadHeader.value);
    // The configured frontend gets the drop page; the grant rides in the fragment, never sent to a server.
    expect(grant.uploadPageUrl).toMatch(/^http:\/\/localhost:4241\/uploads#grant=wug_/);
    const statusPath = new URL(grant.statusUrl).pathname;
    expect((await t.api.get(statusPath)).body).toMatchObject({ state: 'pending', uploadUrl: grant.uploadUrl });

    const uploaded = await upload(t.api, grant, text('notes.txt', 'meeting notes, page 1'));
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const fileId = uploaded.body.file.fileId as string;
    expect(uploaded.body).toEqual({
      state: 'redeemed',
      file: {
        fileId,
        name: 'notes.txt',
        mediaType: 'text/plain',
        size: 21,
        sha256: createHash('sha256').update('meeting notes, page 1').digest('hex'),
      },
    });
    const status = await t.api.get(statusPath);
    expect(status.body).toMatchObject({ state: 'redeemed', file: { fileId, name: 'notes.txt', size: 21 } });

    const attachments = { fileIds: [fileId], updatedAt: new Date().toISOString() };
    const written = await t.api.put(recordUrl).set(manager.auth).send({ attachments });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const read = await t.api.get(recordUrl).set(manager.auth);
    expect(read.body.data.attachments.fileIds).toEqual([fileId]);
  });

  it('mints at the collection URL for a create, and the file goes into the new record', async () => {
    const grant = await mintGrant(t.api, member, `${collection()}/files/cover/grant`, { mimeType: 'image/png' });
    expect(grant.operation).toBe('create');
    expect(new URL(grant.uploadUrl).pathname).toBe(`${collection()}/files/cover/upload`);
    const png = { name: 'cover.png', type: 'image/png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) };
    const uploaded = await upload(t.api, grant, png);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const cover = { fileId: uploaded.body.file.fileId as string, updatedAt: new Date().toISOString() };
    const caseId = await createCase(member, { title: 'With a cover', cover });
    const read = await t.api.get(`${collection()}/${caseId}`).set(member.auth);
    expect(read.body.data.cover).toEqual(cover);
  });

  it('lets exactly one of two concurrent redemptions of one grant succeed', async () => {
    const grant = await mintGrant(t.api, member, `${collection()}/files/attachments/grant`);
    const [first, second] = await Promise.all([
      upload(t.api, grant, text('race.txt', 'first')),
      upload(t.api, grant, text('race.txt', 'second')),
    ]);
    expect([first.status, second.status].sort((a, b) => a - b)).toEqual([201, 401]);
    const loser = first.status === 401 ? first : second;
    expect(loser.body.error).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'credential_invalid' });
    const { rows } = await database.query(`SELECT id FROM wildo_files WHERE name = 'race.txt'`);
    expect(rows).toHaveLength(1);
    // A used grant stays used.
    expect((await upload(t.api, grant, text('again.txt'))).status).toBe(401);
  });

  it('refuses an expired grant (its status says so) while a fresh one works', async () => {
    const expiring = await mintGrant(t.api, member, `${collection()}/files/attachments/grant`, { expiresInMinutes: 1 });
    const fresh = await mintGrant(t.api, member, `${collection()}/files/attachments/grant`, { expiresInMinutes: 5 });
    clock.advance(61_000);
    const refused = await upload(t.api, expiring, text('late.txt'));
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'credential_invalid' });
    expect((await t.api.get(new URL(expiring.statusUrl).pathname)).body.state).toBe('expired');
    expect((await upload(t.api, fresh, text('on-time.txt'))).status).toBe(201);
  });

  it('refuses the wrong field: no grant for a non-file or generated field, no upload at another field’s URL', async () => {
    for (const field of ['title', 'report', 'nothing']) {
      const res = await t.api.post(`${collection()}/files/${field}/grant`).set(member.auth).send({});
      expect(res.status, field).toBe(404);
    }
    const grant = await mintGrant(t.api, member, `${collection()}/files/attachments/grant`);
    const elsewhere = await upload(t.api, grant, text('a.txt'), `${collection()}/files/cover/upload`);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.reason).toBe('credential_invalid');
    // Refused before it was consumed: the grant still works at its own URL.
    expect((await upload(t.api, grant, text('a.txt'))).status).toBe(201);
  });

  it('refuses a MIME type or size outside the field before minting and again on upload, before consuming', async () => {
    const url = `${collection()}/files/attachments/grant`;
    const before = await grantTokenCount();
    const badType = await t.api.post(url).set(member.auth).send({ mimeType: 'image/gif' });
    expect(badType.status).toBe(400);
    expect(badType.body.error.problems).toEqual([{ path: 'mimeType', expected: 'one of text/plain, application/pdf' }]);
    const tooBig = await t.api
      .post(url)
      .set(member.auth)
      .send({ size: ATTACHMENT_MAX_BYTES + 1 });
    expect(tooBig.body.error.problems).toEqual([{ path: 'size', expected: `at most ${ATTACHMENT_MAX_BYTES} bytes` }]);
    const tooLong = await t.api.post(url).set(member.auth).send({ expiresInMinutes: 61 });
    expect(tooLong.status).toBe(400);
    expect(await grantTokenCount()).toBe(before);

    const grant = await mintGrant(t.api, member, url, { mimeType: 'text/plain' });
    const gif = await upload(t.api, grant, { name: 'x.gif', type: 'image/gif', content: 'GIF89a' });
    expect(gif.status).toBe(415);
    const big = await upload(t.api, grant, text('big.txt', 'x'.repeat(ATTACHMENT_MAX_BYTES + 1)));
    expect(big.status).toBe(413);
    const ok = await upload(t.api, grant, text('fits.txt', 'x'.repeat(ATTACHMENT_MAX_BYTES)));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('refuses anonymous and grant-holding callers, and callers the parent operation refuses', async () => {
    const url = `${collection()}/files/attachments/grant`;
    expect((await t.api.post(url).send({})).status).toBe(401);
    const grant = await mintGrant(t.api, member, url);
    const withGrantOnly = await t.api.post(url).set(UPLOAD_GRANT_HEADER, grant.uploadHeader.value).send({});
    expect(withGrantOnly.status).toBe(403);
    expect(withGrantOnly.body.error.reason).toBe('principal_not_allowed');
    const withGrantAndSession = await t.api
      .post(url)
      .set(member.auth)
      .set(UPLOAD_GRANT_HEADER, grant.uploadHeader.value)
      .send({});
    expect(withGrantAndSession.status).toBe(403);
    expect(withGrantAndSession.body.error.reason).toBe('principal_not_allowed');
    // The parent UPDATE needs ORG_MANAGER: a member cannot mint for it, the manager can.
    const caseId = await createCase(member);
    const updateGrant = `${collection()}/${caseId}/files/attachments/grant`;
    const byMember = await t.api.post(updateGrant).set(member.auth).send({});
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.reason).toBe('role_refused');
    await mintGrant(t.api, manager, updateGrant);
    expect(
      (await t.api.post(`${collection()}/missing-case/files/attachments/grant`).set(manager.auth).send({})).status,
    ).toBe(404);
    // Another organization's record is answered as not found.
    expect((await t.api.post(updateGrant).set(stranger.auth).send({})).status).toBe(404);
  });

  it('accepts on the parent write only file ids its tenant uploaded for that field', async () => {
    const theirs = await uploadedFileId(stranger, `${collection(otherOrg)}/files/attachments/grant`, 'theirs.txt');
    const mine = await uploadedFileId(member, `${collection()}/files/attachments/grant`, 'mine.txt');
    const cover = await uploadedFileId(member, `${collection()}/files/attachments/grant`, 'not-a-cover.txt');
    const updatedAt = new Date().toISOString();
    for (const attachments of [
      { fileIds: [theirs], updatedAt },
      { fileIds: [mine, theirs], updatedAt },
      { fileIds: ['file_0123456789abcdef0123456789abcdef'], updatedAt },
    ]) {
      const res = await t.api.post(collection()).set(member.auth).send({ title: 'x', attachments });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', reason: 'input_invalid' });
      expect(res.body.error.problems).toEqual([{ path: 'attachments', expected: expect.any(String) }]);
      expect(JSON.stringify(res.body)).not.toContain(theirs);
    }
    // A file uploaded for attachments is not a cover.
    const wrongField = await t.api
      .post(collection())
      .set(member.auth)
      .send({ title: 'x', cover: { fileId: cover, updatedAt } });
    expect(wrongField.status).toBe(400);
    const accepted = await createCase(member, { title: 'Mine', attachments: { fileIds: [mine, cover], updatedAt } });
    expect(accepted).toEqual(expect.any(String));
  });

  it('lets the configured frontend origin, and no other, call the upload route from the drop page', async () => {
    const path = `${collection()}/files/attachments/upload`;
    const preflight = (origin: string) =>
      t.api.options(path).set('Origin', origin).set('Access-Control-Request-Method', 'POST');
    const allowed = await preflight('http://localhost:4241');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:4241');
    expect(allowed.headers['access-control-allow-headers']).toContain(UPLOAD_GRANT_HEADER);
    const foreign = await preflight('https://evil.example');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers not found for an unknown status handle', async () => {
    const res = await t.api.get(`/api/v1/files/upload-grants/${'a'.repeat(43)}`);
    expect(res.status).toBe(404);
  });

  it('takes only the file a grant was requested for: its declared name, type and size, before using the grant', async () => {
    const url = `${collection()}/files/attachments/grant`;
    const grant = await mintGrant(t.api, member, url, { name: 'notes.txt', mimeType: 'text/plain', size: 10 });
    const pdf = await upload(t.api, grant, { name: 'notes.txt', type: 'application/pdf', content: '%PDF-1.4 x' });
    expect(pdf.status).toBe(400);
    expect(pdf.body.error.problems).toEqual([
      { path: 'file.type', expected: 'text/plain, as the grant was requested for' },
    ]);
    const renamed = await upload(t.api, grant, text('other.txt', '0123456789'));
    expect(renamed.body.error.problems).toEqual([
      { path: 'file.name', expected: 'the file name the grant was requested for' },
    ]);
    const longer = await upload(t.api, grant, text('notes.txt', '0123456789+'));
    expect(longer.body.error.problems).toEqual([
      { path: 'file.size', expected: '10 bytes, as the grant was requested for' },
    ]);
    // None of those used the grant: the declared file goes through.
    expect((await upload(t.api, grant, text('notes.txt', '0123456789'))).status).toBe(201);
  });

  it('refuses file names with direction overrides or control characters, when minting and when uploading', async () => {
    const url = `${collection()}/files/attachments/grant`;
    for (const name of ['invoice\u202Etxt.exe', 'report\u2066.txt', 'next\u0085line.txt', 'bell\u0007.txt']) {
      const minted = await t.api.post(url).set(member.auth).send({ name });
      expect(minted.status, JSON.stringify(name)).toBe(400);
      expect(minted.body.error.problems).toEqual([
        { path: 'name', expected: 'a file name without a path, control characters or direction overrides' },
      ]);
    }
    const grant = await mintGrant(t.api, member, url);
    const overridden = await upload(t.api, grant, text('invoice\u202Etxt.exe'));
    expect(overridden.status).toBe(400);
    expect(overridden.body.error.problems).toEqual([
      { path: 'file.name', expected: 'a file name without a path, control characters or direction overrides' },
    ]);
    // Control: an ordinary name with accents and spaces, through the same grant.
    const plain = await upload(t.api, grant, text('Résumé final.txt'));
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect(plain.body.file.name).toBe('Résumé final.txt');
  });

  it('answers an expired grant’s status URL with its expired state, also after later grants swept the table', async () => {
    const expiring = await mintGrant(t.api, member, `${collection()}/files/attachments/grant`, { expiresInMinutes: 1 });
    clock.advance(2 * 60_000);
    // Minting sweeps the tokens that expired long ago; this one only just did.
    await mintGrant(t.api, member, `${collection()}/files/attachments/grant`);
    const status = await t.api.get(new URL(expiring.statusUrl).pathname);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ state: 'expired', uploadUrl: expiring.uploadUrl });
  });
});

describe('file references written by custom operation handlers', () => {
  const png = (name: string) => ({ name, type: 'image/png', content: `png bytes of ${name}` });

  /** Uploads a cover (PNG) for a new case file of the organization and returns its id. */
  async function coverId(user: TestUser, organizationId: string, name: string): Promise<string> {
    const grant = await mintGrant(t.api, user, `${collection(organizationId)}/files/cover/grant`);
    const res = await upload(t.api, grant, png(name));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.file.fileId as string;
  }

  it('refuses, through utils.records and utils.resources, another tenant’s file and one uploaded for another field', async () => {
    const theirs = await coverId(stranger, otherOrg, 'theirs.png');
    const attachment = await uploadedFileId(member, `${collection()}/files/attachments/grant`, 'attachment.txt');
    const mine = await coverId(member, org, 'mine.png');
    const caseId = await createCase(member, { title: 'Existing' });
    const recordUrl = `${collection()}/${caseId}`;

    for (const coverFileId of [theirs, attachment]) {
      for (const res of [
        await t.api.post(`${collection()}/open-with-cover`).set(member.auth).send({ title: 'Copied', coverFileId }),
        await t.api.post(`${recordUrl}/replace-cover`).set(member.auth).send({ coverFileId }),
      ]) {
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', reason: 'input_invalid' });
        expect(res.body.error.problems).toEqual([{ path: 'cover', expected: expect.any(String) }]);
        expect(JSON.stringify(res.body)).not.toContain(coverFileId);
      }
    }
    const untouched = await t.api.get(recordUrl).set(member.auth);
    expect(untouched.body.data).toMatchObject({ title: 'Existing', version: 1 });
    expect(untouched.body.data.cover).toBeUndefined();

    // Positive control: the tenant's own cover is accepted on both paths and stored.
    const opened = await t.api
      .post(`${collection()}/open-with-cover`)
      .set(member.auth)
      .send({ title: 'With cover', coverFileId: mine });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const openedRead = await t.api.get(`${collection()}/${opened.body.data._id as string}`).set(member.auth);
    expect(openedRead.body.data).toMatchObject({ title: 'With cover', cover: { fileId: mine } });
    const replaced = await t.api.post(`${recordUrl}/replace-cover`).set(member.auth).send({ coverFileId: mine });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const replacedRead = await t.api.get(recordUrl).set(member.auth);
    expect(replacedRead.body.data).toMatchObject({ title: 'Existing', version: 2, cover: { fileId: mine } });
  });
});

describe('file references written on the engine’s store itself', () => {
  it('asks only about ids a write newly names, and reads inside the write’s own transaction', async () => {
    const store = t.backend.container.get<ResourceStore>(T.ResourceStore);
    const definition = t.backend.registry.getResource('case-files').storeDefinition;
    const scope = { kind: 'organization', organizationId: org } as const;
    const creator = { userId: null, principalType: 'system', principalId: 'files-test' };
    const cover = (fileId: string) => ({ fileId, updatedAt: new Date().toISOString() });
    const grant = (user: TestUser, organizationId: string) =>
      mintGrant(t.api, user, `${collection(organizationId)}/files/cover/grant`);
    const png = { type: 'image/png', content: 'png bytes' };
    const theirs = (await upload(t.api, await grant(stranger, otherOrg), { name: 't.png', ...png })).body.file.fileId;
    const mine = (await upload(t.api, await grant(member, org), { name: 'm.png', ...png })).body.file.fileId;

    // Refused inside a transaction (PGlite would wait forever on a read outside it), and nothing of it commits.
    const refused = store.transaction(async (tx) => {
      await tx.insert(definition, scope, { id: 'tx-first', data: { title: 'first' }, creator });
      await tx.insert(definition, scope, { data: { title: 'tx', cover: cover(theirs) }, creator });
    });
    await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_FAILED', problems: [{ path: 'cover' }] });
    expect(await store.findById(definition, scope, 'tx-first')).toBeNull();
    const accepted = await store.transaction((tx) =>
      tx.insert(definition, scope, { data: { title: 'tx', cover: cover(mine) }, creator }),
    );
    expect(accepted.data.cover).toMatchObject({ fileId: mine });

    // A record already holding an id (written here past the check) keeps it through an update naming no new one.
    const unchecked = new SqlResourceStore({ database });
    const held = await unchecked.insert(definition, scope, { data: { title: 'held', cover: cover(theirs) }, creator });
    const retitled = await store.update(definition, scope, held.id, {
      data: { ...held.data, title: 'retitled' },
      expectedVersion: 1,
    });
    expect(retitled.ok).toBe(true);
    const swapped = store.update(definition, scope, accepted.id, {
      data: { ...accepted.data, cover: cover(theirs) },
      expectedVersion: 1,
    });
    await expect(swapped).rejects.toMatchObject({ code: 'VALIDATION_FAILED', problems: [{ path: 'cover' }] });
    expect((await store.findById(definition, scope, accepted.id))?.data.cover).toMatchObject({ fileId: mine });
  });
});

describe('the derived MCP upload-grant tool, through the official MCP client', () => {
  it('is listed beside its parent, whose description explains the handoff, and its grant feeds the parent write', async () => {
    const key = await organizationApiKey(t.api, manager, org);
    const { url } = await t.backend.listen(0);
    const client = new Client({ name: 'wildo-files-test', version: '1.0.0' });
    const endpoint = new URL(`http://localhost:${new URL(url).port}/api/v1/mcp`);
    await client.connect(
      new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: key } } }),
    );
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'case-files__create',
          'case-files__create.upload_grant.attachments',
          'case-files__create.upload_grant.cover',
          'case-files__update.upload_grant.attachments',
          'case-files__update.upload_grant.cover',
        ]),
      );
      // A generated document is written by the engine: no upload tool for it.
      expect(names.filter((name) => name.includes('upload_grant.report'))).toEqual([]);
      const parent = tools.find((tool) => tool.name === 'case-files__create');
      expect(parent?.description).toContain('Open a case file.');
      expect(parent?.description).toContain('"case-files__create.upload_grant.attachments"');
      expect(parent?.description).toContain('"redeemed"');
      const updateTool = tools.find((tool) => tool.name === 'case-files__update.upload_grant.attachments');
      expect(updateTool?.inputSchema.required).toEqual(['caseFileId']);
      expect(Object.keys(updateTool?.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(['organizationId', 'name', 'mimeType', 'size', 'expiresInMinutes']),
      );

      const tool = 'case-files__create.upload_grant.attachments';
      const refused = await client.callTool({ name: tool, arguments: { mimeType: 'image/gif' } });
      expect(refused.isError).toBe(true);
      const minted = await client.callTool({
        name: tool,
        arguments: { name: 'brief.txt', mimeType: 'text/plain', size: 5, expiresInMinutes: 5 },
      });
      expect(minted.isError, JSON.stringify(minted)).toBeFalsy();
      const grant = minted.structuredContent as unknown as UploadGrantResponse;
      expect(grant).toMatchObject({ operation: 'create', expiresInMinutes: 5, field: { name: 'attachments' } });
      const uploaded = await upload(t.api, grant, text('brief.txt', 'brief'));
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
      const status = await t.api.get(new URL(grant.statusUrl).pathname);
      expect(status.body.state).toBe('redeemed');
      const attachments = { fileIds: [status.body.file.fileId as string], updatedAt: new Date().toISOString() };
      const created = await client.callTool({
        name: 'case-files__create',
        arguments: { title: 'Via MCP', attachments },
      });
      expect(created.isError, JSON.stringify(created)).toBeFalsy();
      expect(created.structuredContent).toMatchObject({ title: 'Via MCP', attachments });
      // The key's ORG_MEMBER role does not admit the parent UPDATE, so neither does its upload tool.
      const caseId = (created.structuredContent as { _id: string })._id;
      const updateGrant = await client.callTool({
        name: 'case-files__update.upload_grant.attachments',
        arguments: { caseFileId: caseId },
      });
      expect(updateGrant.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
