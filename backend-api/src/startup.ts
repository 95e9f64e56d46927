import { loadRuntimeConfiguration, WildoConfigError, type RuntimeConfiguration } from './engine/config/index.js';
import { DataDirectoryLockedError } from './engine/persistence/data-directory-lock.errors.js';
import { DeclarationValidationError } from './engine/resources/resources.errors.js';
import { InvalidEnvironmentError, parseBackendEnvironment, type BackendEnvironment } from './environment.schema.js';

// What the backend reads before it opens anything, and how it refuses: `src/main.ts` (start-up) and `wildo check`
// both use these, so a refusal prints the same lines in both.

/** The environment and the generated configuration, checked. */
export interface StartupConfiguration {
  env: BackendEnvironment;
  runtime: RuntimeConfiguration;
}

/**
 * Parses the environment and loads the generated runtime configuration of the project at `rootDir` (refusing a
 * stale generation). Throws `InvalidEnvironmentError` or a `WildoConfigError`.
 */
export async function loadStartupConfiguration(
  processEnv: Readonly<Record<string, string | undefined>>,
  rootDir: string,
): Promise<StartupConfiguration> {
  const env = parseBackendEnvironment(processEnv);
  const runtime = await loadRuntimeConfiguration({ rootDir });
  return { env, runtime };
}

/**
 * The text to print when start-up is refused for something the operator or developer fixes (configuration,
 * environment, declarations, a data directory in use): the message, without a stack. Undefined for anything else
 * (a bug), which deserves its stack.
 */
export function startupRefusalText(error: unknown): string | undefined {
  const refusal =
    error instanceof WildoConfigError ||
    error instanceof DeclarationValidationError ||
    error instanceof InvalidEnvironmentError ||
    error instanceof DataDirectoryLockedError;
  return refusal ? error.message : undefined;
}
