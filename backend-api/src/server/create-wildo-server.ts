import { findProjectRoot } from '../engine/config/index.js';
import {
  createLogger,
  createWildoBackend,
  startRagBackgroundJobs,
  type BackendApplicationDefinition,
  type Logger,
  type WildoBackend,
  type WildoBackendOptions,
} from '../engine/index.js';
import { backendOptionsFromRuntime, isProduction, resolvePublicUrls } from '../server-options.js';
import { loadStartupConfiguration, startupRefusalText } from '../startup.js';

/** Options of {@link createWildoServer}; every one has a default. */
export interface WildoServerOptions {
  /** The project root (where `wildo.saas.config.ts` and `.wildo-saas/generated` are); default: the nearest one above the working directory. */
  rootDir?: string;
  /** The environment read (`PORT`, `DATABASE_URL`, `WILDO_PRIMARY_SECRET`, ...); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The logger; default a JSON logger at `LOG_LEVEL`. */
  logger?: Logger;
  /** The built host UI served from the backend's origin; default `WILDO_FRONTEND_DIST`, else `<root>/frontend/dist` (when built). */
  frontendDist?: string;
  /** Engine options laid over those the configuration and the environment give (a trace sink, providers, ...). */
  backend?: Partial<Omit<WildoBackendOptions, 'application'>>;
  /** Stop gracefully on SIGINT and SIGTERM (default true). */
  handleSignals?: boolean;
  /**
   * On a stop, how long in-flight requests and streams get before streams end with a `shutdown` event and the
   * remaining connections close; default `WILDO_SHUTDOWN_DRAIN_MS` (10 s).
   */
  drainBoundMs?: number;
  /**
   * On a refused start (configuration, environment, declarations, a data directory in use), print its one line and
   * exit 1, as NestJS's `abortOnError` does (default true); false rejects with the error instead.
   */
  abortOnError?: boolean;
}

/** A started server: the backend, where it listens and the URL clients use. */
export interface WildoServer {
  backend: WildoBackend;
  /** Where it listens (`http://host:port`). */
  url: string;
  /** The URL clients use (tokens, discovery documents and links name it). */
  publicUrl: string;
  /**
   * Stops gracefully: readiness reports `draining`, the listener stops accepting, in-flight requests and streams
   * drain within the bound, then jobs, leases, the data directory lock and pools are released.
   */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts an application the way its `main.ts` should: reads the environment and the generated configuration of the
 * project (refusing a stale one), opens the database (embedded PGlite, or PostgreSQL with `DATABASE_URL`), builds and
 * validates the backend, schedules its background jobs, listens on `PORT` and stops on SIGINT/SIGTERM.
 *
 * @example
 * // src/main.ts
 * import { createWildoServer } from '@wildo/backend-api/server';
 * import { application } from './application.js';
 *
 * await createWildoServer(application);
 */
export async function createWildoServer(
  application: BackendApplicationDefinition,
  options: WildoServerOptions = {},
): Promise<WildoServer> {
  try {
    return await startServer(application, options);
  } catch (error) {
    const refusal = startupRefusalText(error);
    if (options.abortOnError === false) throw error;
    process.stderr.write(
      `${refusal ?? `wildo backend failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`}\n`,
    );
    process.exit(1);
  }
}

async function startServer(
  application: BackendApplicationDefinition,
  options: WildoServerOptions,
): Promise<WildoServer> {
  const rootDir = options.rootDir ?? findProjectRoot(process.cwd());
  const { env, runtime } = await loadStartupConfiguration(options.env ?? process.env, rootDir);
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const fromRuntime = backendOptionsFromRuntime(runtime, env, rootDir);
  const backend = await createWildoBackend({
    application,
    logger,
    ...fromRuntime,
    ...options.backend,
    http: {
      ...fromRuntime.http,
      ...(options.frontendDist === undefined ? {} : { frontendDist: options.frontendDist }),
      ...options.backend?.http,
    },
  });
  // The RAG embedding drain (every 5 minutes) and sweep (hourly) run on the job queue of this process.
  if (await startRagBackgroundJobs(backend.container)) logger.info('rag background jobs scheduled');
  const { url } = await backend.listen(env.PORT, env.HOST);
  const { publicUrl, source } = resolvePublicUrls(runtime, env, isProduction(runtime, env));
  logger.info('wildo backend listening', { url, publicUrl, publicUrlFrom: source, health: `${url}/api/v1/health` });
  if (env.PORT === 0 && source !== 'WILDO_PUBLIC_URL') {
    // The issuer is fixed when the backend is built, before the port is picked.
    logger.warn('PORT=0: the public URL does not follow the port picked; set WILDO_PUBLIC_URL to the URL clients use', {
      publicUrl,
      url,
    });
  }
  const drainBoundMs = options.drainBoundMs ?? env.WILDO_SHUTDOWN_DRAIN_MS;
  const close = async () => {
    await backend.drain(drainBoundMs);
    await backend.close();
  };
  if (options.handleSignals !== false) stopOnSignals(close, drainBoundMs, logger);
  return { backend, url, publicUrl, close, [Symbol.asyncDispose]: close };
}

/** What releasing jobs, leases and pools may take after the drain before the process gives up on them. */
const RELEASE_GRACE_MS = 10_000;

/**
 * Stops gracefully on the first SIGINT or SIGTERM, then exits 0 (1 when stopping failed or overran the drain bound
 * and the release grace); a second signal exits 1 at once.
 */
function stopOnSignals(close: () => Promise<void>, drainBoundMs: number, logger: Logger): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      logger.warn('second signal: exiting without finishing the stop', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting down', { signal, drainBoundMs });
    const overrun = setTimeout(() => {
      logger.error('shutdown overran its bound', { drainBoundMs, releaseGraceMs: RELEASE_GRACE_MS });
      process.exit(1);
    }, drainBoundMs + RELEASE_GRACE_MS);
    overrun.unref();
    close().then(
      () => {
        logger.info('stopped', { signal });
        process.exit(0);
      },
      (error: unknown) => {
        logger.error('shutdown failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
