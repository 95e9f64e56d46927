import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRecordingLogger, describeCoordinationContract } from './coordination.contract.js';
import type { CoordinationBackend } from './coordination.js';
import { RedisCoordination } from './redis-coordination.js';

const REDIS_URL = process.env.REDIS_URL;
// One prefix per run of this file, so parallel runs and leftovers never meet.
const PREFIX = `wildo-test:${randomUUID()}:`;

/** Deletes every key this file created under {@link PREFIX}. */
async function deleteTestKeys(url: string): Promise<void> {
  const admin = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 500);
      if (keys.length > 0) await admin.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await admin.quit();
  }
}

describe.skipIf(!REDIS_URL)('RedisCoordination against a live Redis', () => {
  const url = REDIS_URL ?? '';

  afterAll(() => deleteTestKeys(url));

  describeCoordinationContract('redis', {
    open: (logger) => new RedisCoordination({ url, keyPrefix: PREFIX, logger }),
    sharedAcrossInstances: true,
  });

  it('keeps instances with different key prefixes apart', async () => {
    const logger = createRecordingLogger();
    const a = new RedisCoordination({ url, keyPrefix: `${PREFIX}a:`, logger });
    const b = new RedisCoordination({ url, keyPrefix: `${PREFIX}b:`, logger });
    const policy = { points: 1, durationMs: 60_000 };
    expect((await a.consume('shared-key', policy)).allowed).toBe(true);
    expect((await a.consume('shared-key', policy)).allowed).toBe(false);
    expect((await b.consume('shared-key', policy)).allowed).toBe(true);
    expect(await a.acquireLease('shared-lease', 60_000)).not.toBeNull();
    expect(await b.acquireLease('shared-lease', 60_000)).not.toBeNull();
    await Promise.all([a.close(), b.close()]);
  });

  it('writes every key under its prefix', async () => {
    const prefix = `${PREFIX}${randomUUID()}:`;
    const coordination = new RedisCoordination({ url, keyPrefix: prefix, logger: createRecordingLogger() });
    await coordination.consume('k', { points: 5, durationMs: 60_000 });
    await coordination.acquireLease('l', 60_000);
    const admin = new Redis(url);
    const keys = await admin.keys(`${prefix}*`);
    expect(keys.sort()).toEqual([`${prefix}counter:5/60000:k`, `${prefix}lease:l`]);
    await Promise.all([coordination.close(), admin.quit()]);
  });

  it('gives counter windows a TTL, so idle keys do not stay in Redis', async () => {
    const prefix = `${PREFIX}${randomUUID()}:`;
    const coordination = new RedisCoordination({ url, keyPrefix: prefix, logger: createRecordingLogger() });
    await coordination.consume('k', { points: 5, durationMs: 60_000 });
    const admin = new Redis(url);
    const ttl = await admin.pttl(`${prefix}counter:5/60000:k`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await Promise.all([coordination.close(), admin.quit()]);
  });

  it('fails fast while its connections are cut, then recovers and resubscribes', async () => {
    const name = `wildo-test-${randomUUID()}`;
    const logger = createRecordingLogger();
    const coordination = new RedisCoordination({ url, keyPrefix: PREFIX, logger, connectionName: name });
    const messages: string[] = [];
    const unsubscribe = await coordination.subscribe('c', (message) => messages.push(message));
    const admin = new Redis(url);
    const clients = String(await admin.client('LIST'));
    const ids = [...clients.matchAll(/^id=(\d+) .*? name=(\S+)/gm)]
      .filter((match) => match[2] === name || match[2] === `${name}:sub`)
      .map((match) => match[1] ?? '');
    expect(ids).toHaveLength(2);
    for (const id of ids) await admin.client('KILL', 'ID', id);

    // Right after the cut a charge may fail or succeed, but it settles: it never waits for Redis.
    const policy = { points: 100, durationMs: 60_000 };
    await coordination.consume('k', policy).catch((error: unknown) => {
      expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    });
    await vi.waitFor(() => coordination.consume('k', policy), { timeout: 3_000, interval: 50 });
    await vi.waitFor(
      async () => {
        await coordination.publish('c', 'after the cut');
        expect(messages).toContain('after the cut');
      },
      { timeout: 3_000, interval: 50 },
    );
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'info', message: 'redis coordination connection restored' }),
    );
    await unsubscribe();
    await Promise.all([coordination.close(), admin.quit()]);
  });

  it('serves commands issued right after construction (waits for the first connection)', async () => {
    const coordination = new RedisCoordination({ url, keyPrefix: PREFIX, logger: createRecordingLogger() });
    const [decision, unsubscribe] = await Promise.all([
      coordination.consume(randomUUID(), { points: 1, durationMs: 1_000 }),
      coordination.subscribe(randomUUID(), () => {}),
    ]);
    expect(decision.allowed).toBe(true);
    await unsubscribe();
    await coordination.close();
  });
});

// Runs without REDIS_URL too: nothing listens on port 1.
describe('RedisCoordination when Redis is unreachable', () => {
  const UNREACHABLE = 'redis://127.0.0.1:1';
  const opened: CoordinationBackend[] = [];

  function openUnreachable() {
    const logger = createRecordingLogger();
    const coordination = new RedisCoordination({ url: UNREACHABLE, logger });
    opened.push(coordination);
    return { coordination, logger };
  }

  afterAll(async () => {
    await Promise.all(opened.map((c) => c.close()));
  });

  it('rejects consume promptly as SERVICE_UNAVAILABLE', { timeout: 5_000 }, async () => {
    const { coordination } = openUnreachable();
    await expect(coordination.consume('k', { points: 1, durationMs: 1_000 })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('keeps rejecting promptly while reconnect attempts continue', { timeout: 5_000 }, async () => {
    const { coordination } = openUnreachable();
    await coordination.consume('k', { points: 1, durationMs: 1_000 }).catch(() => undefined);
    for (let i = 0; i < 3; i += 1) {
      await expect(coordination.consume('k', { points: 1, durationMs: 1_000 })).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
      });
    }
  });

  it('rejects publish, subscribe and acquireLease promptly', { timeout: 5_000 }, async () => {
    const { coordination } = openUnreachable();
    const unavailable = { code: 'SERVICE_UNAVAILABLE' };
    await expect(coordination.publish('c', 'm')).rejects.toMatchObject(unavailable);
    await expect(coordination.subscribe('c', () => {})).rejects.toMatchObject(unavailable);
    await expect(coordination.acquireLease('l', 1_000)).rejects.toMatchObject(unavailable);
  });

  it('logs the connection failure through the logger, without the URL credentials', { timeout: 5_000 }, async () => {
    const logger = createRecordingLogger();
    const coordination = new RedisCoordination({ url: 'redis://user:hunter2@127.0.0.1:1', logger });
    await coordination.consume('k', { points: 1, durationMs: 1_000 }).catch(() => undefined);
    await coordination.close();
    const failures = logger.lines.filter((line) => line.message === 'redis coordination connection failed');
    expect(failures[0]?.level).toBe('warn');
    expect(JSON.stringify(logger.lines)).not.toContain('hunter2');
  });

  it('rejects promptly when the server accepts connections but never answers', { timeout: 5_000 }, async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const coordination = new RedisCoordination({
      url: `redis://127.0.0.1:${port}`,
      logger: createRecordingLogger(),
      timeouts: { connectTimeoutMs: 200, commandTimeoutMs: 200 },
    });
    await expect(coordination.consume('k', { points: 1, durationMs: 1_000 })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    await coordination.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('closes without waiting for Redis', { timeout: 5_000 }, async () => {
    const { coordination } = openUnreachable();
    await coordination.close();
    await expect(coordination.consume('k', { points: 1, durationMs: 1_000 })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
  });
});
