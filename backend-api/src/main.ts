import path from 'node:path';
import { findProjectRoot, loadRuntimeConfiguration, WildoConfigError } from './engine/config/index.js';
import { createWildoBackend, DeclarationValidationError } from './engine/index.js';
import { createLogger } from './engine/logging/index.js';
import { BackendEnvironmentSchema, parseTrustProxy } from './environment.schema.js';
import { referenceApplication } from './modules/index.js';

/** Starts the reference application on the generated configuration and the process environment. */
async function main(): Promise<void> {
  const env = BackendEnvironmentSchema.parse(process.env);
  const logger = createLogger({ level: env.LOG_LEVEL });
  const rootDir = findProjectRoot(process.cwd());
  const runtime = await loadRuntimeConfiguration({ rootDir });
  const production = runtime.application.environment === 'PRODUCTION' || env.NODE_ENV === 'production';
  const backend = await createWildoBackend({
    application: referenceApplication,
    runtime,
    publicUrl: runtime.runtime.endPoints.main_backend_api?.publicUrl ?? `http://localhost:${env.PORT}`,
    identity: {
      accessTokenLifetimeMinutes: runtime.auth.accessTokenLifetimeMinutes,
      bootstrapAdminEmails: env.WILDO_BOOTSTRAP_ADMIN_EMAILS.split(',').map((e) => e.trim()).filter(Boolean),
    },
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: env.WILDO_DATA_DIR ?? path.join(rootDir, '.wildo-saas', 'data'),
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    ...(env.WILDO_PRIMARY_SECRET ? { primarySecret: env.WILDO_PRIMARY_SECRET } : {}),
    production,
    logger,
    http: { trustProxy: parseTrustProxy(env.WILDO_TRUST_PROXY) },
  });
  const { url } = await backend.listen(env.PORT, env.HOST);
  logger.info('wildo backend listening', { url, health: `${url}/api/v1/health` });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    backend.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  // Configuration and declaration problems are the operator's to fix: print the message, not a stack.
  if (error instanceof WildoConfigError || error instanceof DeclarationValidationError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`wildo backend failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
