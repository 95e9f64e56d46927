import path from 'node:path';
import { validateSaaSConfig, type SaaSConfig } from '@wildo/shared-lib';
import { CONFIG_FILE_NAME } from './config.constants.js';
import { ConfigInvalidError, ConfigLoadError } from './config.errors.js';
import { describeLoadFailure } from './load-failure.js';
import { importModuleFile } from './module-import.js';

/**
 * Evaluates `wildo.saas.config.ts` (TypeScript, ESM) and returns its default export, unvalidated.
 * Any failure, including a throw inside the file, becomes a {@link ConfigLoadError}.
 */
export async function loadConfigModule(rootDir: string): Promise<unknown> {
  const configPath = path.join(rootDir, CONFIG_FILE_NAME);
  let loaded: Record<string, unknown>;
  try {
    // Each load sees the file as it is now; where jiti has to transpile it, it writes no cache files (start-up).
    loaded = await importModuleFile(configPath, { fresh: true, fsCache: false });
  } catch (error) {
    throw new ConfigLoadError(describeLoadFailure(error, rootDir), { cause: error });
  }
  const exported = loaded.default;
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
