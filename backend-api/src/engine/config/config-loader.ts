import path from 'node:path';
import { validateSaaSConfig, type SaaSConfig } from '@wildo/shared-lib';
import { createJiti } from 'jiti';
import { CONFIG_FILE_NAME } from './config.constants.js';
import { ConfigInvalidError, ConfigLoadError } from './config.errors.js';
import { describeLoadFailure } from './load-failure.js';

/**
 * Evaluates `wildo.saas.config.ts` (TypeScript, ESM) and returns its default export, unvalidated.
 * Any failure, including a throw inside the file, becomes a {@link ConfigLoadError}.
 */
export async function loadConfigModule(rootDir: string): Promise<unknown> {
  const configPath = path.join(rootDir, CONFIG_FILE_NAME);
  // No caches: each load must see the file as it is now, and loading must not write cache files.
  const jiti = createJiti(import.meta.url, {
    moduleCache: false,
    fsCache: false,
    interopDefault: false,
    tryNative: true,
  });
  let loaded: unknown;
  try {
    loaded = await jiti.import(configPath);
  } catch (error) {
    throw new ConfigLoadError(describeLoadFailure(error, rootDir), { cause: error });
  }
  const exported =
    typeof loaded === 'object' && loaded !== null ? (loaded as { default?: unknown }).default : undefined;
  if (exported === undefined) {
    throw new ConfigLoadError('it has no default export; end it with `export default defineSaaSConfig({ ... })`');
  }
  return exported;
}

/**
 * Loads and validates the project's configuration, with defaults applied.
 * Throws {@link ConfigLoadError} or {@link ConfigInvalidError} (which lists every problem).
 */
export async function loadSaaSConfig(rootDir: string): Promise<SaaSConfig> {
  const result = validateSaaSConfig(await loadConfigModule(rootDir));
  if (!result.ok) throw new ConfigInvalidError(result.problems);
  return result.config;
}
