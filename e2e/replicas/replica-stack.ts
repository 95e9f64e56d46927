import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import pg from 'pg';
import {
  freePort,
  spawnBackendProcess,
  stopBackendProcess,
  type SpawnedBackend,
} from '@wildo/backend-api/testing/backend-process';
import { RoundRobinBalancer } from './balancer.js';

/** One backend process of the lane. */
export interface Replica {
  name: string;
  url: string;
  process: SpawnedBackend;
}

/** What {@link startReplicaStack} starts: PostgreSQL database, a Redis of its own, replicas, the balancer. */
export interface ReplicaStack {
  /** The balancer's URL: the public URL every replica announces. */
  url: string;
  balancer: RoundRobinBalancer;
  replicas: Replica[];
  databaseUrl: string;
  redis: { port: number; stop(): Promise<void>; start(): Promise<void> };
  /** Starts one more replica (a restart after a kill). */
  addReplica(name: string): Promise<Replica>;
  /** A client on the lane's database (to check what was stored). */
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

const PRIMARY_SECRET = 'replicas-lane-primary-secret-0123456789-abcdefghij';

async function startRedis(port: number): Promise<ChildProcess> {
  // A Redis of the lane's own on another port: the machine's Redis is never touched, and stopping it is a fault.
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code})`)));
  });
  child.stdout?.resume();
  return child;
}

/**
 * Creates a fresh database on the PostgreSQL of `adminUrl`, starts a Redis on a free port, `count` replicas of the
 * reference application (`src/main.ts`) on both, and the balancer in front of them.
 */
export async function startReplicaStack(
  adminUrl: string,
  count: number,
  extraEnv: Record<string, string> = {},
): Promise<ReplicaStack> {
  const database = `wildo_replicas_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: databaseUrl.toString() });
  const redisPort = await freePort();
  let redisProcess: ChildProcess | undefined = await startRedis(redisPort);
  const balancer = new RoundRobinBalancer();
  const url = await balancer.start();
  const replicas: Replica[] = [];

  const addReplica = async (name: string): Promise<Replica> => {
    const port = await freePort();
    const process = spawnBackendProcess({
      PORT: String(port),
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      WILDO_PRIMARY_SECRET: PRIMARY_SECRET,
      WILDO_PUBLIC_URL: url,
      WILDO_FILE_STORAGE: 'database',
      WILDO_SHUTDOWN_DRAIN_MS: '3000',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    });
    // LOG_LEVEL=warn hides the "listening" line the helper waits for; the port is ours, so poll readiness.
    await waitReady(`http://127.0.0.1:${port}`, process);
    const replica = { name, url: `http://127.0.0.1:${port}`, process };
    replicas.push(replica);
    return replica;
  };

  try {
    // One at a time: the first runs the migrations, the others find them applied.
    for (let i = 1; i <= count; i++) await addReplica(`replica-${i}`);
    await client.connect();
  } catch (error) {
    for (const replica of replicas) await stopBackendProcess(replica.process, 'SIGKILL');
    redisProcess?.kill('SIGKILL');
    await balancer.close();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    throw error;
  }
  balancer.setUpstreams(replicas.map((replica) => replica.url));
  return {
    url,
    balancer,
    replicas,
    databaseUrl: databaseUrl.toString(),
    redis: {
      port: redisPort,
      async stop() {
        if (!redisProcess) return;
        redisProcess.kill('SIGKILL');
        await once(redisProcess, 'exit');
        redisProcess = undefined;
      },
      async start() {
        redisProcess ??= await startRedis(redisPort);
      },
    },
    addReplica,
    async query<T>(text: string, params: unknown[] = []) {
      return (await client.query(text, params)).rows as T[];
    },
    async close() {
      await balancer.close();
      await Promise.all(replicas.map((replica) => stopBackendProcess(replica.process, 'SIGTERM')));
      redisProcess?.kill('SIGKILL');
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Polls `GET /api/v1/health/ready` until it answers 200; rejects if the process exits first or after 3 minutes. */
async function waitReady(url: string, process: SpawnedBackend): Promise<void> {
  let exited = false;
  void process.exited.then(() => (exited = true));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${url} exited before it was ready: ${(await process.exited).stderr}`);
    const ok = await fetch(`${url}/api/v1/health/ready`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} was not ready within 3 minutes`);
}
