import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWildoBackend } from './engine/bootstrap/wildo-backend.js';
import { createSilentLogger } from './engine/logging/index.js';
import { DATA_DIRECTORY_LOCK_FILE } from './engine/persistence/data-directory-lock.js';
import { DataDirectoryLockedError } from './engine/persistence/data-directory-lock.errors.js';
import type { DataDirectoryLockRecord } from './engine/persistence/data-directory-lock.schema.js';
import { openSqlDatabase } from './engine/persistence/open-sql-database.js';
import { referenceApplication } from './modules/index.js';
import { seedDataDirectory } from './testing/pglite-template.js';
import { freePort, spawnBackendProcess, stopBackendProcess, type SpawnedBackend } from './testing/backend-process.js';
import { readGeneratedRuntime } from './testing/generated-runtime.js';
import { createOrganization, signInAgain, signUp, type TestUser } from './testing/identity.fixtures.js';

// Real processes (`tsx src/main.ts`, as `npm start` runs it), as an operator starts them: a first backend on a
// free port, a refused second one on the same data directory, a restart after SIGKILL with WILDO_PUBLIC_URL set.
// A start costs seconds of CPU, so the file shares them: each `it` checks one behaviour of the current process.
const PROCESS_TIMEOUT_MS = 180_000;

let dataDir: string;
let pgliteDir: string;
let lockFile: string;
let backend: SpawnedBackend;
let api: supertest.Agent;
let user: TestUser;
let todos: string;
/** Every todo a backend acknowledged (201), by id, with its title. */
const acknowledged = new Map<string, string>();

let port: number;
const OVERRIDDEN_PUBLIC_URL = 'https://todos.example.test';

async function startBackend(env: Record<string, string> = {}): Promise<void> {
  port = await freePort();
  backend = spawnBackendProcess({ WILDO_DATA_DIR: dataDir, PORT: String(port), ...env });
  api = supertest.agent(await backend.listening);
}

/** The line the current backend logged when it started listening. */
function listeningLine(): Record<string, unknown> {
  return backend.logLines.find((line) => line.msg === 'wildo backend listening') ?? {};
}

async function getJson(path: string): Promise<Record<string, unknown>> {
  const res = await api.get(path);
  expect(res.status, path).toBe(200);
  return res.body as Record<string, unknown>;
}

async function createTodo(title: string): Promise<void> {
  const res = await api.post(todos).set(user.auth).send({ title });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  acknowledged.set(res.body.data._id as string, title);
}

async function lockRecord(): Promise<DataDirectoryLockRecord> {
  return JSON.parse(await readFile(lockFile, 'utf8')) as DataDirectoryLockRecord;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'wildo-data-'));
  await seedDataDirectory(dataDir);
  pgliteDir = path.join(dataDir, 'pglite');
  lockFile = path.join(pgliteDir, DATA_DIRECTORY_LOCK_FILE);
  await startBackend();
  user = await signUp(api);
  todos = `/api/v1/organizations/${await createOrganization(api, user)}/todos`;
  await createTodo('before the second backend');
}, PROCESS_TIMEOUT_MS);

afterAll(async () => {
  if (backend) await stopBackendProcess(backend, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('the backend process (real processes)', () => {
  it('follows PORT in development: the issuer and the MCP resource metadata name the port it listens on', async () => {
    const expected = `http://localhost:${port}`;
    expect(listeningLine()).toMatchObject({ url: `http://127.0.0.1:${port}`, publicUrl: expected });
    const metadata = await getJson('/.well-known/oauth-authorization-server');
    expect(metadata.issuer).toBe(expected);
    expect(metadata.authorization_endpoint).toMatch(new RegExp(`^${expected}/`));
    expect(metadata.token_endpoint).toMatch(new RegExp(`^${expected}/`));
    expect(await getJson('/.well-known/oauth-protected-resource/api/v1/mcp')).toMatchObject({
      resource: `${expected}/api/v1/mcp`,
      authorization_servers: [expected],
    });
  });

  it(
    'refuses a second backend with one line naming the first, which keeps serving',
    async () => {
      const first = await lockRecord();
      const url = await backend.listening;
      const second = spawnBackendProcess({ WILDO_DATA_DIR: dataDir, PORT: '0' });
      const exit = await second.exited;
      expect(exit.code).toBe(1);
      expect(exit.stderr).toBe(
        `The embedded database in ${pgliteDir} is in use by another process (pid ${backend.pid}, host ${hostname()}, started ${first.startedAt}, ` +
          `command "src/main.ts", serving ${url}): stop it, or set WILDO_DATA_DIR to another directory.\n`,
      );
      expect((await lockRecord()).nonce).toBe(first.nonce);
      await createTodo('after the refusal');
      const [id] = [...acknowledged].find(([, title]) => title === 'after the refusal') ?? [];
      expect((await api.get(`${todos}/${id}`).set(user.auth)).body.data.title).toBe('after the refusal');
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'refuses what a CLI command calls to open the database while the backend holds it',
    async () => {
      const holder = new RegExp(
        `is in use by another process \\(pid ${backend.pid}, .*, serving http://127\\.0\\.0\\.1:\\d+\\): stop it, or set WILDO_DATA_DIR to another directory\\.$`,
      );
      const logger = createSilentLogger();
      const opens = [
        () => openSqlDatabase({ dataDir: pgliteDir, logger }),
        async () =>
          createWildoBackend({
            application: referenceApplication,
            runtime: await readGeneratedRuntime(),
            dataDir,
            logger,
          }),
      ];
      for (const open of opens) {
        const error = await open().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(DataDirectoryLockedError);
        expect((error as Error).message).toMatch(holder);
      }
      expect((await api.get(todos).set(user.auth)).status).toBe(200);
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'restarts after a SIGKILL amid a stream of writes with every acknowledged write present',
    async () => {
      const killedPid = backend.pid;
      const killAfter = acknowledged.size + 40;
      // Four writers keep requests in flight; the kill lands while some are being written.
      const writer = async (n: number) => {
        for (let i = 0; ; i++) {
          const res = await api
            .post(todos)
            .set(user.auth)
            .send({ title: `stream ${n}-${i}` })
            .catch(() => undefined);
          if (res?.status !== 201) return;
          acknowledged.set(res.body.data._id as string, `stream ${n}-${i}`);
          if (acknowledged.size >= killAfter) backend.child.kill('SIGKILL');
        }
      };
      await Promise.all([0, 1, 2, 3].map(writer));
      expect((await backend.exited).signal).toBe('SIGKILL');
      expect(acknowledged.size).toBeGreaterThanOrEqual(killAfter);
      // SIGKILL leaves the lock behind; the next start finds its process gone and takes it over.
      expect((await lockRecord()).pid).toBe(killedPid);

      await startBackend({ WILDO_PUBLIC_URL: `${OVERRIDDEN_PUBLIC_URL}/` });
      expect((await lockRecord()).pid).toBe(backend.pid);
      // Another issuer now: the old token is refused, a new sign-in is not (the account survived too).
      expect((await api.get(todos).set(user.auth)).status).toBe(401);
      user = await signInAgain(api, user);
      const missing: string[] = [];
      for (const [id, title] of acknowledged) {
        const res = await api.get(`${todos}/${id}`).set(user.auth);
        if (res.status !== 200 || res.body.data.title !== title) missing.push(`${title} (${res.status})`);
      }
      expect(missing).toEqual([]);
    },
    PROCESS_TIMEOUT_MS,
  );

  it('uses WILDO_PUBLIC_URL over the configuration and the port (the restarted backend)', async () => {
    expect(listeningLine()).toMatchObject({ publicUrl: OVERRIDDEN_PUBLIC_URL });
    expect(await getJson('/.well-known/oauth-authorization-server')).toMatchObject({ issuer: OVERRIDDEN_PUBLIC_URL });
    expect(await getJson('/.well-known/oauth-protected-resource/api/v1/mcp')).toMatchObject({
      resource: `${OVERRIDDEN_PUBLIC_URL}/api/v1/mcp`,
      authorization_servers: [OVERRIDDEN_PUBLIC_URL],
    });
  });

  it(
    'releases the lock when stopped normally (SIGTERM)',
    async () => {
      const exit = await stopBackendProcess(backend);
      expect(exit.code).toBe(0);
      expect(existsSync(lockFile)).toBe(false);
    },
    PROCESS_TIMEOUT_MS,
  );
});
