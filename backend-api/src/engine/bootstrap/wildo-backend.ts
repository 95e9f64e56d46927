import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { Container } from 'inversify';
import { A2aRuntime, createA2aRuntime, type A2aSettings } from '../a2a/index.js';
import { createCoordination, type CoordinationBackend } from '../coordination/index.js';
import type { CredentialDirectory } from '../credentials/index.js';
import { compileBindingsOrThrow, CONNECTORS_TYPES, ConnectorRuntime } from '../connectors/index.js';
import { CimdResolver } from '../oauth/cimd/index.js';
import { McpToolCatalogue, UploadGrantMcpTools } from '../mcp/index.js';
import { oauthSettingsFor, type OAuthSettings } from '../oauth/index.js';
import {
  IDENTITY_MIGRATIONS,
  identitySettingsFor,
  resolvePrimarySecret,
  type IdentitySettingsOverrides,
  type PrincipalDirectory,
  type SigningKeyService,
  type SqlPrincipalDirectory,
  type TokenRevocations,
} from '../identity/index.js';
import { ResourceServerInstancesRegistryBackendService } from '../resource-servers/index.js';
import type { OutboundTargetGuardOptions } from '../net/index.js';
import {
  createHttpApp,
  DEFAULT_HTTP_SETTINGS,
  ServingState,
  type DrainOutcome,
  type HttpSettings,
} from '../http/index.js';
import {
  bindUploadGrants,
  FileRecordsService,
  FileReferenceCheck,
  FILES_TYPES,
  openFileStorage,
  withFileReferences,
  type FileStorage,
  type FileStorageKind,
  type FileUploadGrantService,
} from '../files/index.js';
import {
  createRagIngestion,
  DEFAULT_EXTRACTION_WORKER_SETTINGS,
  ExtractionWorker,
  storedFileSource,
  withCorpusIngestion,
  type ExtractionLimits,
  type ExtractionWorkerSettings,
} from '../rag/index.js';
import { createMailSender, type MailSender, type MailSettings } from '../mail/index.js';
import { declaresFrontend, DEFAULT_PUBLIC_URL, PublicUrls } from '../public-urls/index.js';
import { JobQueueService, JOBS_TYPES, type JobQueueSettings } from '../jobs/index.js';
import { createLogger, type Logger } from '../logging/index.js';
import { runMigrations, SqlResourceStore, type SqlDatabase } from '../persistence/index.js';
import { ResourceDescriptions, type ResourcesRegistry } from '../resources/index.js';
import { agentProviderWarnings } from '../agents/systems/index.js';
import { ExternalMcpConnector, type ExternalMcpServerDefinition } from '../agents/external-mcp/index.js';
import { ProviderCallError, ProviderRegistry, type ProviderRegistryOptions } from '../agents/providers/index.js';
import type { RuntimeConfiguration } from '../config/index.js';
import {
  createTraceSink,
  resolveLlmObservabilityPolicy,
  startTelemetry,
  telemetrySettingsFrom,
  type AgentTraceSink,
  type Telemetry,
  type TraceSinkRuntime,
} from '../observability/index.js';
import { CODING_TYPES, type CodingAgentSettings } from '../agents/coding/index.js';
import type { BackendApplicationDefinition } from './backend-domain-module.js';
import { SAAS_SERVICE_TYPES as T, systemClock, type Clock } from '../container/index.js';
import type { AuditTrail } from '../audit/index.js';
import { openApplicationDatabase } from './application-database.js';
import { validateDeclarations } from './application-declarations.js';
import { ENGINE_MODULES } from './engine-modules.js';
import { engineContainerModule } from './engine.module.js';

/** Options of {@link createWildoBackend}; every one has a default suited to a fresh machine. */
export interface WildoBackendOptions {
  application: BackendApplicationDefinition;
  /** The generated runtime configuration (`.wildo-saas/generated/runtime.json`), for capabilities that read it. */
  runtime?: unknown;
  /**
   * The backend's public URL (token issuer, discovery, agent cards, upload grants, mail links); default the runtime
   * configuration's `main_backend_api` URL, else `http://localhost:4241`. Start-up code passes the URL
   * `resolvePublicUrls` chose (`WILDO_PUBLIC_URL`, or the configured one following `PORT`).
   */
  publicUrl?: string;
  identity?: IdentitySettingsOverrides;
  /** The pages' public URL (the consent page, the drop page, mail links); default: the backend's own URL. */
  frontendUrl?: string;
  /** OAuth server settings (DCR, CIMD, consent lifetime, ...); defaults in `oauthSettingsFor`. */
  oauth?: Partial<OAuthSettings>;
  /** Outbound guard options for client metadata documents (tests allow a local HTTPS server here). */
  outbound?: OutboundTargetGuardOptions;
  /** A database to use (tests share one); otherwise PostgreSQL at `databaseUrl`, else PGlite under `dataDir/pglite` (in memory without a data directory). */
  database?: SqlDatabase;
  databaseUrl?: string;
  dataDir?: string;
  /** Coordination to use; otherwise Redis when `redisUrl` is set, in-process if not. */
  coordination?: CoordinationBackend;
  redisUrl?: string;
  /** Key prefix of coordination keys (default `wildo:`); tests isolate themselves with their own. */
  coordinationKeyPrefix?: string;
  /** `WILDO_PRIMARY_SECRET`; a development secret is generated when absent outside production. */
  primarySecret?: string;
  production?: boolean;
  logger?: Logger;
  clock?: Clock;
  http?: Partial<HttpSettings>;
  /** Where provider credentials, base URL overrides and observability settings are read (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Provider registry settings (concurrency, timeouts, retries, a `fetch`). */
  providers?: Omit<ProviderRegistryOptions, 'runtime' | 'env'>;
  /** External MCP servers agents may name in `capabilities.tools.mcpRefs`. */
  externalMcpServers?: readonly ExternalMcpServerDefinition[];
  /**
   * Where uploaded files' bytes go: a storage, or `database` (the application's database, shared by replicas), or
   * `local` (the default): `<dataDir>/files`, or a temporary directory without a data directory.
   */
  fileStorage?: FileStorage | FileStorageKind;
  /** Background job queue settings (polling, maintenance, drain timeout); defaults in `DEFAULT_JOB_QUEUE_SETTINGS`. */
  jobs?: Partial<JobQueueSettings>;
  /** A trace sink to use instead of the one built from the runtime configuration (logger, PostHog). */
  traceSink?: AgentTraceSink;
  /**
   * The OpenTelemetry SDK to use; otherwise one is started when the environment turns OTLP export on
   * (`WILDO_OTLP_ENABLED`, `OTEL_EXPORTER_OTLP_ENDPOINT`), and stopped with the backend.
   */
  telemetry?: Telemetry;
  /** A2A push callback guard and retries, task leases. */
  a2a?: A2aSettings;
  /** The outbound guard of REST connectors (default: production rules; in development, their loopback base URLs over http). */
  connectorOutbound?: OutboundTargetGuardOptions;
  /** Coding-agent launchers (by provider), subprocess timing and the host environment subprocesses draw on. */
  codingAgents?: CodingAgentSettings;
  /**
   * Where mails go: `sender` (the application's own), else SMTP at `smtpUrl` (`WILDO_SMTP_URL`) from `from`
   * (`WILDO_MAIL_FROM`), else the outbox in the application's database (shown at `/dev/outbox` in development).
   */
  mail?: Partial<MailSettings> & { sender?: MailSender };
  /** Bounds of text extraction (`DEFAULT_EXTRACTION_LIMITS`) and its worker's heap and idle time. */
  extraction?: { limits?: Partial<ExtractionLimits>; worker?: Partial<ExtractionWorkerSettings> };
}

/** A running engine: its Express app, container and lifecycle. */
export interface WildoBackend {
  app: Express;
  container: Container;
  registry: ResourcesRegistry;
  /** Listens on `port` (0 = any free port). */
  listen(port?: number, host?: string): Promise<{ server: Server; url: string }>;
  /**
   * Starts a graceful stop: readiness reports `draining`, listeners stop accepting, in-flight requests and streams
   * get up to `boundMs` (default {@link DEFAULT_DRAIN_BOUND_MS}) to finish; streams still open then end with a
   * `shutdown` event. Resolves once every connection is closed; `close` then releases the rest.
   */
  drain(boundMs?: number): Promise<DrainOutcome>;
  /** Drains (when not done yet), then stops jobs, leases and pools and releases what the backend opened itself. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** How long a shutdown waits for in-flight requests and streams before ending them: 10 s. */
export const DEFAULT_DRAIN_BOUND_MS = 10_000;

/**
 * Builds a backend from an application definition: validates every declaration (refusing to start with the
 * list of problems), opens the database and runs migrations, creates resource tables, wires the container
 * and the HTTP app.
 *
 * @example
 * await using backend = await createWildoBackend({ application });
 * const { url } = await backend.listen(4241);
 */
export async function createWildoBackend(options: WildoBackendOptions): Promise<WildoBackend> {
  const runtime = options.runtime as RuntimeConfiguration | undefined;
  const env = options.env ?? process.env;
  const externalMcpServers = options.externalMcpServers ?? [];
  // Every declaration (the engine's own modules first) is validated together, before anything is opened.
  const { application, registry, agents } = validateDeclarations(options.application, {
    ...(runtime ? { runtime } : {}),
    externalMcpServerRefs: externalMcpServers.map((s) => s.ref),
  });
  const logger = options.logger ?? createLogger();
  const clock = options.clock ?? systemClock;
  const owned: (() => Promise<void>)[] = [];
  try {
    // Connector-backed operations, checked before anything else is opened: a SQL binding whose database role escapes
    // row-level security refuses the start.
    const connectors = await ConnectorRuntime.start({
      bindings: compileBindingsOrThrow(application, new Map(registry.listResources().map((r) => [r.type, r]))),
      env,
      logger,
      production: options.production === true,
      ...(options.connectorOutbound ? { outbound: options.connectorOutbound } : {}),
    });
    owned.push(() => connectors.close());
    const database =
      options.database ?? (await openApplicationDatabase({ logger, ...pick(options, 'databaseUrl', 'dataDir') }));
    if (!options.database) owned.push(() => database.close());
    await runMigrations(
      database,
      [...IDENTITY_MIGRATIONS, ...application.modules.flatMap((m) => m.migrations ?? [])],
      logger,
    );
    // Every record write, whichever path makes it, names only files its tenant uploaded for the field.
    const fileStorage =
      typeof options.fileStorage === 'object'
        ? options.fileStorage
        : await openFileStorage({ database, kind: options.fileStorage, ...pick(options, 'dataDir') }, owned);
    const fileRecords = new FileRecordsService(database, fileStorage, clock);
    const fileReferences = new FileReferenceCheck(registry, fileRecords);
    // Writes of corpus resources (fields marked `.ragSource()`) ingest their chunks in the same transaction; file
    // fields are extracted from the stored uploads (the record's own tenant only).
    // Documents are read in a worker with a memory cap and a deadline, so no file can take the process down.
    const extractionWorker = new ExtractionWorker({
      ...DEFAULT_EXTRACTION_WORKER_SETTINGS,
      ...options.extraction?.worker,
    });
    owned.push(() => extractionWorker.close());
    const ragIngestion = createRagIngestion({
      registry,
      logger,
      clock,
      files: storedFileSource(fileRecords),
      extraction: {
        reader: extractionWorker.read,
        ...(options.extraction?.limits ? { limits: options.extraction.limits } : {}),
      },
    });
    const store = withFileReferences(
      withCorpusIngestion(new SqlResourceStore({ database, logger, now: () => clock.now() }), ragIngestion),
      fileReferences,
    );
    await store.ensureSchema(registry.listResources().map((r) => r.storeDefinition));
    const coordination =
      options.coordination ??
      createCoordination({
        logger,
        ...pick(options, 'redisUrl'),
        ...(options.coordinationKeyPrefix ? { keyPrefix: options.coordinationKeyPrefix } : {}),
      });
    if (!options.coordination) owned.push(() => coordination.close());
    const primarySecret = await resolvePrimarySecret({
      logger,
      production: options.production === true,
      ...pick(options, 'dataDir'),
      ...(options.primarySecret ? { configured: options.primarySecret } : {}),
    });

    const container = new Container({ defaultScope: 'Singleton' });
    container.bind(T.Container).toConstantValue(container);
    container.bind(T.Logger).toConstantValue(logger);
    container.bind(T.Clock).toConstantValue(clock);
    container.bind(T.Database).toConstantValue(database);
    container.bind(T.ResourceStore).toConstantValue(store);
    container.bind(T.RagIngestionService).toConstantValue(ragIngestion);
    container.bind(T.Coordination).toConstantValue(coordination);
    container.bind(T.PrimarySecret).toConstantValue(primarySecret);
    container.bind(T.ApplicationDefinition).toConstantValue(application);
    container.bind(T.ResourcesRegistry).toConstantValue(registry);
    container
      .bind(T.ResourceDescriptions)
      .toConstantValue(
        new ResourceDescriptions(registry, { builtInModules: new Set(ENGINE_MODULES.map((module) => module.name)) }),
      );
    container.bind(T.RuntimeConfiguration).toConstantValue(options.runtime ?? {});
    const configuredUrl = options.publicUrl ?? runtime?.runtime.endPoints.main_backend_api?.publicUrl;
    const urls = new PublicUrls({
      backend: configuredUrl ?? DEFAULT_PUBLIC_URL,
      pages: options.frontendUrl ?? configuredUrl ?? DEFAULT_PUBLIC_URL,
      pagesDeclared: declaresFrontend(runtime),
    });
    container.bind(T.PublicUrls).toConstantValue(urls);
    const mail = createMailSender({
      settings: options.mail ?? {},
      database,
      clock,
      logger,
      production: options.production === true,
    });
    container.bind(T.MailSender).toConstantValue(mail.sender);
    if (mail.outbox && options.production !== true) container.bind(T.DevelopmentOutbox).toConstantValue(mail.outbox);
    owned.push(() => mail.sender.close?.() ?? Promise.resolve());
    const identity = identitySettingsFor(urls.backend, options.identity);
    const oauth = oauthSettingsFor(identity.issuer, urls.pages, options.oauth);
    container.bind(T.IdentitySettings).toConstantValue(identity);
    container.bind(T.OAuthSettings).toConstantValue(oauth);
    container
      .bind(T.ResourceServerInstancesRegistry)
      .toConstantValue(
        new ResourceServerInstancesRegistryBackendService(identity.issuer, application.resourceServerInstances ?? []),
      );
    if (oauth.cimd.policy !== 'DISABLED') {
      const cimd = new CimdResolver({
        config: oauth.cimd,
        logger,
        clock,
        ...(options.outbound ? { guard: options.outbound } : {}),
      });
      container.bind(T.CimdResolver).toConstantValue(cimd);
      owned.push(() => cimd.close());
    }
    const uploadGrantTools = new UploadGrantMcpTools(() => ({
      grants: container.get<FileUploadGrantService>(FILES_TYPES.FileUploadGrants),
      directory: container.get<PrincipalDirectory>(T.PrincipalDirectory),
    }));
    container
      .bind(T.McpToolCatalogue)
      .toConstantValue(new McpToolCatalogue(registry, application, logger, uploadGrantTools));
    container.bind(T.AgentsRegistry).toConstantValue(agents);
    const providers = runtime?.providers ? new ProviderRegistry({ ...options.providers, runtime, env }) : undefined;
    container.bind(T.LLMProviderRegistry).toConstantValue(providers ?? unconfiguredProviders);
    if (providers)
      for (const warning of agentProviderWarnings(agents.listAgents(), providers))
        logger.warn(warning.message, warning.fields);
    container.bind(T.ExternalMcpConnector).toConstantValue(new ExternalMcpConnector(externalMcpServers, logger));
    container.bind(CONNECTORS_TYPES.ConnectorRuntime).toConstantValue(connectors);
    container
      .bind(CODING_TYPES.CodingAgentRuntimeOptions)
      .toConstantValue({ env, ...(options.codingAgents ? { settings: options.codingAgents } : {}) });
    const telemetry = options.telemetry ?? (await startTelemetryFor(runtime ?? {}, env, logger, owned));
    const traceSink =
      options.traceSink ?? (await createTraceSink(runtime ?? {}, env, logger, telemetry ? { telemetry } : {}));
    if (!options.traceSink) owned.push(() => traceSink.shutdown?.() ?? traceSink.flush());
    container.bind(T.AgentTraceSink).toConstantValue(traceSink);
    // Bound before the engine's services resolve: the dispatcher's early file-reference check is not optional.
    container.bind(FILES_TYPES.FileStorage).toConstantValue(fileStorage);
    container.bind(FILES_TYPES.FileRecords).toConstantValue(fileRecords);
    container.bind(FILES_TYPES.FileReferenceCheck).toConstantValue(fileReferences);
    bindUploadGrants(container, {
      registry,
      store,
      files: fileRecords,
      // Never a URL made up from a request: without a configured one, minting is refused.
      ...(configuredUrl ? { urls } : {}),
      clock,
      logger,
    });
    container.load(engineContainerModule);
    for (const module of application.modules) if (module.containerModule) container.load(module.containerModule);

    await container.get<SigningKeyService>(T.SigningKeyService).initialize();
    const directory = container.get<SqlPrincipalDirectory>(T.PrincipalDirectory);
    await directory.start();
    owned.unshift(() => directory.stop());
    const credentials = container.get<CredentialDirectory>(T.CredentialDirectory);
    await credentials.start();
    owned.unshift(() => credentials.stop());
    const revocations = container.get<TokenRevocations>(T.TokenRevocations);
    await revocations.start();
    owned.unshift(() => revocations.stop());

    const jobs = new JobQueueService({ database, logger, ...(options.jobs ? { settings: options.jobs } : {}) });
    container.bind(JOBS_TYPES.JobQueueService).toConstantValue(jobs);
    const a2a = createA2aRuntime(container, application, {
      production: options.production === true,
      jobs,
      ...(options.a2a ? { settings: options.a2a } : {}),
    });
    container.bind(A2aRuntime).toConstantValue(a2a);
    await a2a.start();
    owned.unshift(() => a2a.stop());

    // Drained first at shutdown (runs in flight finish while the database and services are still open).
    owned.unshift(() => jobs.drain());

    const serving = new ServingState();
    const app = createHttpApp(container, { ...DEFAULT_HTTP_SETTINGS, ...options.http }, serving);
    return assemble(app, container, registry, owned, logger, database, serving);
  } catch (error) {
    await releaseAll(owned, logger);
    throw error;
  }
}

/** Without a runtime configuration no provider is declared: every call is refused as not configured. */
const unconfiguredProviders = {
  get(ref: string): never {
    throw new ProviderCallError(
      ref,
      'not_configured',
      `Provider "${ref}" is not declared: the backend runs without a runtime configuration.`,
    );
  },
};

function assemble(
  app: Express,
  container: Container,
  registry: ResourcesRegistry,
  owned: (() => Promise<void>)[],
  logger: Logger,
  database: SqlDatabase,
  serving: ServingState,
): WildoBackend {
  const servers: Server[] = [];
  let drained: Promise<DrainOutcome> | undefined;
  let closed: Promise<void> | undefined;
  const drain = (boundMs = DEFAULT_DRAIN_BOUND_MS) =>
    (drained ??= serving.drain(servers, boundMs).then((outcome) => {
      logger.info('drained', { ...outcome });
      return outcome;
    }));
  const close = () =>
    (closed ??= (async () => {
      await drain();
      // Reads and refusals are answered before their audit entries are stored: those reach the database before it closes.
      if (container.isBound(T.AuditTrail))
        await container
          .get<AuditTrail>(T.AuditTrail)
          .settle()
          .catch((error: unknown) =>
            logger.warn('audit entries could not be settled at shutdown', { error: String(error) }),
          );
      await releaseAll(owned, logger);
    })());
  return {
    app,
    container,
    registry,
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        const server = app.listen(port, host, (error?: Error) => {
          if (error) return reject(error);
          servers.push(server);
          const address = server.address() as AddressInfo;
          const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
          // For a refused second process's message only: failing to note it never fails the listen.
          const noted = database.noteServingUrl?.(url) ?? Promise.resolve();
          void noted
            .catch((noteError: unknown) =>
              logger.warn('could not note the URL in the data directory lock', { error: String(noteError) }),
            )
            .then(() => resolve({ server, url }));
        });
      });
    },
    drain,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Starts OTLP export when the environment turns it on; it is stopped last, after everything that emits. */
async function startTelemetryFor(
  runtime: TraceSinkRuntime,
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
  owned: (() => Promise<void>)[],
): Promise<Telemetry | undefined> {
  const settings = telemetrySettingsFrom(env, resolveLlmObservabilityPolicy(runtime, env, logger).captureContent);
  if (!settings) return undefined;
  const telemetry = await startTelemetry(settings, logger);
  owned.push(() => telemetry.shutdown());
  return telemetry;
}

async function releaseAll(owned: (() => Promise<void>)[], logger: Logger): Promise<void> {
  for (const release of owned.splice(0)) {
    try {
      await release();
    } catch (error) {
      logger.warn('failed to release a resource during shutdown', { error: String(error) });
    }
  }
}

function pick<T extends object, K extends keyof T>(source: T, ...keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
