import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findProjectRoot, readRuntimeConfiguration, type RuntimeConfiguration } from '@wildo/backend-api';

let cached: Promise<RuntimeConfiguration> | undefined;

/**
 * The reference application's committed runtime configuration, as `npm start` runs it, with an empty provider
 * environment: scenarios never reach a real model provider.
 */
export async function referenceRuntimeOptions(): Promise<{
  runtime: RuntimeConfiguration;
  env: Record<string, string>;
}> {
  cached ??= readRuntimeConfiguration(findProjectRoot(path.dirname(fileURLToPath(import.meta.url))));
  return { runtime: await cached, env: {} };
}
