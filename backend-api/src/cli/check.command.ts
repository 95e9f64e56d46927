import { validateDeclarations, type ValidatedApplication } from '../engine/bootstrap/application-declarations.js';
import { loadStartupConfiguration, startupRefusalText } from '../startup.js';
import { ApplicationLoadError, loadApplication, type ApplicationLocation } from './application-loader.js';
import type { CliOutput } from './cli.output.js';
import { resolveProjectRoot } from './project-root.js';

const COMMAND = 'wildo check';

/** Options of `wildo check`. */
export interface CheckOptions extends ApplicationLocation {
  /** The environment start-up would read (default `process.env`). */
  env: Readonly<Record<string, string | undefined>>;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** One line counting what was validated (the engine's modules included). */
function summaryOf({ application, registry, agents }: ValidatedApplication): string {
  const counts = [
    plural(application.modules.length, 'module'),
    plural(registry.listResources().length, 'resource'),
    plural(registry.listOperations().length, 'operation variant'),
    plural(agents.listAgents().length, 'agent'),
    plural(agents.listTools().length, 'function tool'),
    plural(agents.listSystems().length, 'actor system'),
  ];
  return `${application.name}: the environment, the configuration and every declaration are valid (${counts.join(', ')}).`;
}

/**
 * Validates what start-up validates, without a database or a server: the environment, the configuration (against
 * its generation) and every declaration, through the same functions as `src/main.ts`, so a refusal prints the
 * same lines. Returns the exit code.
 */
export async function runCheck(options: CheckOptions, output: CliOutput): Promise<number> {
  try {
    const rootDir = resolveProjectRoot(options);
    const { runtime } = await loadStartupConfiguration(options.env, rootDir);
    const { application } = await loadApplication(options);
    output.out(summaryOf(validateDeclarations(application, { runtime })));
    return 0;
  } catch (error) {
    const text = startupRefusalText(error) ?? (error instanceof ApplicationLoadError ? error.message : undefined);
    // Unexpected failures (a bug) still get one line, not a stack dump.
    output.err(text ?? `${COMMAND} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
