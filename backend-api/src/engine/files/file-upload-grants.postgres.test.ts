import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { createTestBackend, type TestBackend } from '../../testing/test-backend.js';
import { openPostgresHarness, postgresTestUrl } from '../persistence/postgres-test-schema.js';
import type { SqlDatabaseHarness } from '../persistence/sql-database.contract.js';
import { filesTestApplication, mintGrant, upload } from './files.fixtures.js';

// The claim point on PostgreSQL, where two redemptions really run at once on two pooled connections.

const url = postgresTestUrl();

describe.skipIf(url === undefined)('upload grants on PostgreSQL (DATABASE_URL)', () => {
  let harness: SqlDatabaseHarness;
  let t: TestBackend;
  let user: TestUser;
  let collection: string;

  beforeAll(async () => {
    harness = await openPostgresHarness(url ?? '');
    t = await createTestBackend(harness.database, { application: filesTestApplication });
    user = await signUp(t.api);
    collection = `/api/v1/organizations/${await createOrganization(t.api, user)}/case-files`;
  });
  afterAll(async () => {
    await t?.close();
    await harness?.close();
  });

  it('lets one of two concurrent redemptions win, and the winner’s file is accepted by the parent write', async () => {
    const grant = await mintGrant(t.api, user, `${collection}/files/attachments/grant`);
    const answers = await Promise.all(
      ['first', 'second', 'third'].map((content) =>
        upload(t.api, grant, { name: 'race.txt', type: 'text/plain', content }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort((a, b) => a - b)).toEqual([201, 401, 401]);
    const { rows } = await harness.database.query(`SELECT id FROM wildo_files WHERE name = 'race.txt'`);
    expect(rows).toHaveLength(1);
    const fileId = answers.find((answer) => answer.status === 201)?.body.file.fileId as string;
    const attachments = { fileIds: [fileId], updatedAt: new Date().toISOString() };
    const created = await t.api.post(collection).set(user.auth).send({ title: 'On PostgreSQL', attachments });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const invented = { fileIds: ['file_ffffffffffffffffffffffffffffffff'], updatedAt: attachments.updatedAt };
    expect((await t.api.post(collection).set(user.auth).send({ title: 'x', attachments: invented })).status).toBe(400);
  });
});
