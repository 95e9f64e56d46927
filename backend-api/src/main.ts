import { findProjectRoot } from './engine/config/index.js';
import { createWildoBackend, startRagBackgroundJobs } from './engine/index.js';
import { createLogger } from './engine/logging/index.js';
import { referenceApplication } from './modules/index.js';
import { backendOptionsFromRuntime, isProduction, resolvePublicUrls } from './server-options.js';
import { loadStartupConfiguration, startupRefusalText } from './startup.js';

/** Starts the reference application on the generated configuration and the process environment. */
async function main(): Promise<void> {
  const rootDir = findProjectRoot(process.cwd());
  const { env, runtime } = await loadStartupConfiguration(process.env, rootDir);
  const logger = createLogger({ level: env.LOG_LEVEL });
  const backend = await createWildoBackend({
    application: referenceApplication,
    logger,
    ...backendOptionsFromRuntime(runtime, env, rootDir),
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
  const refusal = startupRefusalText(error);
  process.stderr.write(
    `${refusal ?? `wildo backend failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`}\n`,
  );
  process.exit(1);
});
