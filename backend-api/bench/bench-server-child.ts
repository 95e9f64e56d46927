import { writeFile } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import {
  createSilentLogger,
  createWildoBackend,
  type WildoBackend,
  type WildoBackendOptions,
} from '../src/engine/index.js';
import { createPgliteDatabase, createPostgresDatabase, type SqlDatabase } from '../src/engine/persistence/index.js';
import { referenceApplication } from '../src/modules/index.js';
import { readGeneratedRuntime } from '../src/testing/generated-runtime.js';
import { isBenchRunnerMessage, type BenchServerMessage, type BenchTarget } from './bench-protocol.js';

/** A fixed secret: tokens only need to verify within this process's lifetime. */
const BENCH_PRIMARY_SECRET = 'bench-primary-secret-0123456789-abcdefghijklmnop';

/**
 * The burst throttle stays in the path (every request is charged, as in production) with a limit no bench
 * run reaches: the default 600 per 10 s would turn the measurement into a benchmark of 429s.
 */
const BENCH_BURST = { points: 1_000_000_000, durationMs: 10_000 };

/** What one benchmark's server child serves beside the framework, and how it announces itself. */
export interface BenchServerChildOptions<TReady> {
  /** The bare comparison app, on the same database. */
  bareApp(database: SqlDatabase): RequestListener;
  /** Options of the framework beside the bench's own, given the bare app's URL (it listens first). */
  backendOptions?(bareUrl: string): Partial<WildoBackendOptions>;
  /** Seeds through the framework and builds the `ready` message from both base URLs. */
  ready(frameworkUrl: string, bareUrl: string): Promise<TReady>;
}

function openDatabase(target: BenchTarget): Promise<SqlDatabase> {
  if (target.backend === 'pglite') return createPgliteDatabase();
  return createPostgresDatabase({ connectionString: target.connectionString, searchPath: target.schema });
}

/** Samples this process's CPU between `start` and `stopInto` through the inspector (only the measured window). */
class CpuProfiler {
  private started: Promise<Session> | undefined;

  start(): void {
    this.started = (async () => {
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      // 100 µs: fine enough to see per-request costs of a few microseconds over thousands of requests.
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      return session;
    })();
  }

  async stopInto(path: string): Promise<void> {
    if (!this.started) throw new Error('profile-stop before profile-start');
    const session = await this.started;
    this.started = undefined;
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await writeFile(path, JSON.stringify(profile));
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

/**
 * The server side of one benchmark target, run as a child process of the bench runner so the load generator
 * never shares this event loop: it opens the database once, serves the framework (the reference application as
 * `npm start` runs it, without provider credentials) and the bare app on it on two ephemeral ports, answers CPU
 * usage queries and stops when asked or orphaned. It speaks the protocol of `bench-protocol.ts`.
 */
export async function runBenchServerChild<TReady extends object>(
  options: BenchServerChildOptions<TReady>,
): Promise<void> {
  const send = (message: BenchServerMessage | TReady) => process.send?.(message);
  const target = JSON.parse(process.argv[2] ?? '') as BenchTarget;
  let database: SqlDatabase | undefined;
  let backend: WildoBackend | undefined;
  let frameworkServer: Server | undefined;
  let bareServer: Server | undefined;

  let stopping: Promise<void> | undefined;
  const stop = (code: number) =>
    (stopping ??= (async () => {
      try {
        // Keep-alive sockets would hold `close()` open until they time out.
        for (const server of [frameworkServer, bareServer]) server?.closeAllConnections();
        await new Promise<void>((resolve) => (bareServer ? bareServer.close(() => resolve()) : resolve()));
        await backend?.close();
        await database?.close();
      } catch (error) {
        process.stderr.write(`bench server: shutdown failed: ${String(error)}\n`);
      } finally {
        // Exiting (rather than being killed) is what lets `--cpu-prof` write its profile.
        process.exit(code);
      }
    })());
  const profiler = new CpuProfiler();
  process.on('message', (message) => {
    if (!isBenchRunnerMessage(message)) return;
    if (message.type === 'stop') return void stop(0);
    if (message.type === 'profile-start') return profiler.start();
    if (message.type === 'profile-stop')
      return void profiler.stopInto(message.path).then(() => send({ type: 'profile-written', path: message.path }));
    const { user, system } = process.cpuUsage();
    send({ type: 'cpu-usage', user, system });
  });
  // The runner is gone (crashed or killed): nobody will ask us to stop.
  process.on('disconnect', () => void stop(0));
  process.on('SIGINT', () => void stop(130));
  process.on('SIGTERM', () => void stop(143));

  try {
    database = await openDatabase(target);
    bareServer = createServer(options.bareApp(database));
    const bareUrl = await listen(bareServer);
    backend = await createWildoBackend({
      application: referenceApplication,
      database,
      logger: createSilentLogger(),
      primarySecret: BENCH_PRIMARY_SECRET,
      runtime: await readGeneratedRuntime(),
      // Only bench:otel sets it (on one of its two children): the OTLP endpoint this child exports to.
      env: process.env.BENCH_OTEL_EXPORTER_OTLP_ENDPOINT
        ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.BENCH_OTEL_EXPORTER_OTLP_ENDPOINT }
        : {},
      http: { burst: BENCH_BURST },
      ...options.backendOptions?.(bareUrl),
    });
    const framework = await backend.listen(0);
    frameworkServer = framework.server;
    send(await options.ready(framework.url, bareUrl));
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    await stop(1);
  }
}
