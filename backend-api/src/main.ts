import { findProjectRoot, loadRuntimeConfiguration, WildoConfigError } from './engine/config/index.js';
import { createWildoBackend, DataDirectoryLockedError, DeclarationValidationError } from './engine/index.js';
import { createLogger } from './engine/logging/index.js';
import { InvalidEnvironmentError, parseBackendEnvironment } from './environment.schema.js';
import { referenceApplication } from './modules/index.js';
import { backendOptionsFromRuntime, isProduction, resolvePublicUrls } from './server-options.js';

/** Starts the reference application on the generated configuration and the process environment. */
async function main(): Promise<void> {
  const env = parseBackendEnvironment(process.env);
  const logger = createLogger({ level: env.LOG_LEVEL });
  const rootDir = findProjectRoot(process.cwd());
  const runtime = await loadRuntimeConfiguration({ rootDir });
  const backend = await createWildoBackend({ application: referenceApplication, logger, ...backendOptionsFromRuntime(runtime, env, rootDir) });
  const { url } = await backend.listen(env.PORT, env.HOST);
  const { publicUrl, source } = resolvePublicUrls(runtime, env, isProduction(runtime, env));
  logger.info('wildo backend listening', { url, publicUrl, publicUrlFrom: source, health: `${url}/api/v1/health` });
  if (env.PORT === 0 && source !== 'WILDO_PUBLIC_URL') {
    // The issuer is fixed when the backend is built, before the port is picked.
    logger.warn('PORT=0: the public URL does not follow the port picked; set WILDO_PUBLIC_URL to the URL clients use', { publicUrl, url });
  }

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
  // Configuration, environment, declaration and data directory problems are the operator's to fix: print the message, not a stack.
  if (
    error instanceof WildoConfigError ||
    error instanceof DeclarationValidationError ||
    error instanceof InvalidEnvironmentError ||
    error instanceof DataDirectoryLockedError
  ) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`wildo backend failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
