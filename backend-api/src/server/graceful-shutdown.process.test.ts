import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../engine/logging/index.js';
import { openSqlDatabase } from '../engine/persistence/open-sql-database.js';
import { RESOURCE_TABLES_REGISTRY } from '../engine/persistence/resource-schema-sync.js';
import { assistantOrganization, parseSse } from '../testing/agents.fixtures.js';
import { freePort, spawnBackendProcess, type SpawnedBackend } from '../testing/backend-process.js';
import { AnthropicStub, deferred, textReply } from '../testing/llm-stubs/index.js';
import { seedDataDirectory } from '../testing/pglite-template.js';

// SIGTERM to the real entry (`src/main.ts` through createWildoServer) while a turn streams and writes run: the
// stream ends with a last `shutdown` event at the drain bound, every write is acknowledged and stored or neither,
// and the process exits 0 within the bound, releasing the data directory lock.

const PROCESS_TIMEOUT_MS = 180_000;
const DRAIN_BOUND_MS = 2_000;
/** Releasing jobs, leases and pools after the drain: generous on a shared two-core machine. */
const RELEASE_MARGIN_MS = 8_000;

let dataDir: string;
let backend: SpawnedBackend;
const stub = new AnthropicStub();
const gate = deferred();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'wildo-shutdown-'));
  await seedDataDirectory(dataDir);
  await stub.start();
  backend = spawnBackendProcess({
    WILDO_DATA_DIR: dataDir,
    PORT: String(await freePort()),
    WILDO_SHUTDOWN_DRAIN_MS: String(DRAIN_BOUND_MS),
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: stub.baseURL,
  });
  await backend.listening;
}, PROCESS_TIMEOUT_MS);

afterAll(async () => {
  gate.resolve();
  if (backend && backend.child.exitCode === null) backend.child.kill('SIGKILL');
  await stub.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('SIGTERM (a real process)', () => {
  it(
    'ends an open stream with a shutdown event, keeps every write whole, and exits 0 within the bound',
    async () => {
      const url = await backend.listening;
      const api = supertest.agent(url);
      const { owner, orgId, turns } = await assistantOrganization(api, 'shutdown');
      const todos = `${url}/api/v1/organizations/${orgId}/todos`;

      // A turn whose model answers one word and then holds: the stream stays open until the drain bound.
      stub.enqueue(textReply('Working on it, slowly', { holdAfterFirstDelta: gate.promise }));
      const turn = await fetch(`${url}${turns}`, {
        method: 'POST',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Take your time' }),
      });
      expect(turn.status).toBe(200);
      const reader = turn.body!.pipeThrough(new TextDecoderStream()).getReader();
      let streamed = '';
      while (!streamed.includes('Working')) streamed += (await reader.read()).value ?? '';

      // Writers run until the backend stops answering; each title is acknowledged (201) or refused at the door.
      const acknowledged = new Set<string>();
      const attempted = new Set<string>();
      const firstAcks = deferred();
      const writer = async (n: number) => {
        for (let i = 0; ; i += 1) {
          const title = `w${n}-${i}`;
          attempted.add(title);
          const answer = await fetch(todos, {
            method: 'POST',
            headers: { ...owner.auth, 'content-type': 'application/json' },
            body: JSON.stringify({ title }),
          }).catch(() => undefined);
          if (!answer) return;
          if (answer.status === 201) acknowledged.add(title);
          else expect([503], `${title}: ${answer.status}`).toContain(answer.status);
          if (acknowledged.size >= 6) firstAcks.resolve();
        }
      };
      const writers = Promise.all([0, 1, 2].map(writer));
      await firstAcks.promise;

      const sent = Date.now();
      backend.child.kill('SIGTERM');
      const rest = (async () => {
        for (let read = await reader.read(); !read.done; read = await reader.read()) streamed += read.value;
      })();
      const [exit] = await Promise.all([backend.exited, rest, writers]);
      const elapsed = Date.now() - sent;

      expect(exit.code, exit.stderr).toBe(0);
      expect(elapsed).toBeLessThan(DRAIN_BOUND_MS + RELEASE_MARGIN_MS);
      const events = parseSse(streamed);
      expect(events.at(-1)).toMatchObject({ event: 'shutdown', data: { reason: 'server_shutting_down' } });
      expect(backend.logLines.find((line) => line.msg === 'drained')).toMatchObject({ streamsEnded: 1 });

      // The lock is released (the directory opens), and the stored todos are exactly those acknowledged.
      const database = await openSqlDatabase({ dataDir: path.join(dataDir, 'pglite'), logger: createSilentLogger() });
      try {
        const { rows: tables } = await database.query<{ table_name: string }>(
          `SELECT table_name FROM ${RESOURCE_TABLES_REGISTRY} WHERE resource_type = 'todos'`,
        );
        const { rows } = await database.query<{ title: string }>(
          `SELECT data->>'title' AS title FROM ${tables[0]?.table_name ?? 'missing'} WHERE data->>'title' LIKE 'w%'`,
        );
        const stored = new Set(rows.map((row) => row.title));
        expect(acknowledged.size).toBeGreaterThanOrEqual(6);
        expect([...stored].sort()).toEqual([...acknowledged].sort());
        expect(attempted.size).toBeGreaterThan(acknowledged.size);
      } finally {
        await database.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );
});
