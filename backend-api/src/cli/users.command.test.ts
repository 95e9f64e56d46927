import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApplicationDatabase } from '../engine/bootstrap/application-database.js';
import { createSilentLogger } from '../engine/logging/index.js';
import { createPostgresDatabase } from '../engine/persistence/postgres-database.js';
import { createPostgresTestSchema, postgresTestUrl } from '../engine/persistence/postgres-test-schema.js';
import { signInAgain, signUp, type TestUser } from '../testing/identity.fixtures.js';
import { seedDataDirectory } from '../testing/pglite-template.js';
import { createTestBackend, type TestBackend } from '../testing/test-backend.js';
import { createCapturedOutput } from './cli.output.js';
import { changeApplicationRole } from './users.command.js';
import { runWildoCli } from './wildo.cli.js';

/** Signs `user` in again: a token issued after a role change carries the new authorization version. */
const signIn = async (t: TestBackend, user: TestUser) => (await signInAgain(t.api, user)).auth;

const setRoles = (t: TestBackend, auth: { Authorization: string }, target: TestUser) =>
  t.api
    .put(`/api/v1/users/${target.userId}/app-roles`)
    .set(auth)
    .send({ roles: ['APP_USER'] });

describe('wildo users grant-role / revoke-role on the embedded database', () => {
  let dataDir: string;
  let admin: TestUser;
  let other: TestUser;
  let target: TestUser;

  /** The backend on the data directory, as `npm start` opens it; closed (releasing the directory) after `use`. */
  async function withBackend<T>(use: (t: TestBackend) => Promise<T>): Promise<T> {
    const database = await openApplicationDatabase({ dataDir, logger: createSilentLogger() });
    try {
      const t = await createTestBackend(database);
      try {
        return await use(t);
      } finally {
        await t.close();
      }
    } finally {
      await database.close();
    }
  }

  const cli = (...args: string[]) => runWildoCli(['users', ...args], { env: { WILDO_DATA_DIR: dataDir } });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'wildo-users-cli-'));
    await seedDataDirectory(dataDir);
    await withBackend(async (t) => {
      admin = await signUp(t.api, 'Future-Admin');
      other = await signUp(t.api, 'Another-Admin');
      target = await signUp(t.api, 'target');
      // Control: before any grant, a signed-up person cannot change application roles.
      expect((await setRoles(t, admin.auth, target)).status).toBe(403);
    });
  }, 60_000);
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('grants APP_ADMIN to a known account, whose next token may change application roles', async () => {
    const result = await cli('grant-role', '--email', admin.email, '--role', 'APP_ADMIN');
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(
      `Granted APP_ADMIN to ${admin.email} (user ${admin.userId}); application roles now: APP_USER, APP_ADMIN.`,
    );
    await withBackend(async (t) => {
      // The sign-up token predates the grant: its authorization version is stale.
      expect((await setRoles(t, admin.auth, target)).status).toBe(401);
      expect((await setRoles(t, await signIn(t, admin), target)).status).toBe(200);
    });
  });

  it('refuses an unknown email with one line and exit code 1, changing nothing', async () => {
    const result = await cli('grant-role', '--email', `nobody-${randomUUID()}@example.test`, '--role', 'APP_ADMIN');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^wildo users grant-role: no account has the email nobody-.*@example\.test; the person signs up first\.\n$/,
    );
  });

  it('refuses an unknown role with one line naming the known ones', async () => {
    const result = await cli('grant-role', '--email', other.email, '--role', 'ORG_ADMIN');
    expect(result).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'wildo users grant-role: unknown application role "ORG_ADMIN"; use one of APP_ADMIN, APP_USER.\n',
    });
  });

  it('finds the account whatever the letter case of the email, and says when nothing changes', async () => {
    const shouted = await cli('grant-role', '--email', `  ${other.email.toUpperCase()} `, '--role', 'APP_ADMIN');
    expect(shouted.exitCode).toBe(0);
    expect(shouted.stdout).toContain(`Granted APP_ADMIN to ${other.email} (user ${other.userId})`);
    const again = await cli('grant-role', '--email', other.email.toLowerCase(), '--role', 'APP_ADMIN');
    expect(again).toEqual({
      exitCode: 0,
      stdout: `${other.email} already has APP_ADMIN; nothing changed.\n`,
      stderr: '',
    });
    await withBackend(async (t) => {
      expect((await setRoles(t, await signIn(t, other), target)).status).toBe(200);
    });
  });

  it('revokes APP_ADMIN, after which a fresh token is refused again', async () => {
    const revoked = await cli('revoke-role', '--email', other.email, '--role', 'APP_ADMIN');
    expect(revoked.exitCode).toBe(0);
    expect(revoked.stdout).toContain(
      `Revoked APP_ADMIN from ${other.email} (user ${other.userId}); application roles now: APP_USER.`,
    );
    const last = await cli('revoke-role', '--email', other.email, '--role', 'APP_USER');
    expect(last.exitCode).toBe(1);
    expect(last.stderr).toBe(
      `wildo users revoke-role: ${other.email} has no other application role, and an account keeps at least one.\n`,
    );
    await withBackend(async (t) => {
      expect((await setRoles(t, await signIn(t, other), target)).status).toBe(403);
    });
  });

  it('refuses a data directory without a database instead of creating an empty one', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'wildo-users-cli-empty-'));
    try {
      const result = await runWildoCli(['users', 'grant-role', '--email', admin.email, '--role', 'APP_ADMIN'], {
        env: { WILDO_DATA_DIR: empty },
      });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toBe(
        `wildo users grant-role: no embedded database at ${path.join(empty, 'pglite')}; start the backend once, or set DATABASE_URL or WILDO_DATA_DIR as the backend has them.\n`,
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

const databaseUrl = postgresTestUrl();
const redisUrl = process.env.REDIS_URL;

describe.skipIf(!databaseUrl || !redisUrl)(
  'wildo users grant-role beside a running backend (PostgreSQL + Redis)',
  () => {
    it('announces the change: the running backend drops its cached account and admits the new token at once', async () => {
      const schema = await createPostgresTestSchema(databaseUrl!);
      const database = await createPostgresDatabase({
        connectionString: databaseUrl!,
        searchPath: schema.schema,
        maxConnections: 4,
      });
      const coordinationKeyPrefix = `test:users-cli:${randomUUID()}:`;
      const t = await createTestBackend(database, { redisUrl: redisUrl!, coordinationKeyPrefix });
      try {
        const admin = await signUp(t.api, 'running-admin');
        const target = await signUp(t.api, 'running-target');
        // The backend caches the account (APP_USER, version 1) on this request.
        expect((await setRoles(t, admin.auth, target)).status).toBe(403);
        const output = createCapturedOutput();
        const store = {
          databaseUrl: databaseUrl!,
          searchPath: schema.schema,
          dataDir: '',
          redisUrl: redisUrl!,
          coordinationKeyPrefix,
        };
        expect(
          await changeApplicationRole({ email: admin.email, role: 'APP_ADMIN', change: 'grant', store }, output),
        ).toBe(0);
        expect(output.stdout()).toContain(
          'Running replicas were told through Redis to drop their cached copy of the account.',
        );
        const fresh = await signIn(t, admin);
        // The cache lives 60 s: a success within this bounded wait can only come from the announcement.
        let res = await setRoles(t, fresh, target);
        for (let i = 0; i < 100 && res.status !== 200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          res = await setRoles(t, fresh, target);
        }
        expect(res.status).toBe(200);
      } finally {
        await t.close();
        await database.close();
        await schema.drop();
      }
    });
  },
);
