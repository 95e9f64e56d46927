import {
  CONFIG_FILE_NAME,
  ConfigInvalidError,
  compareGeneration,
  GENERATED_DIR,
  prepareGeneration,
  SYNC_COMMAND,
  WildoConfigError,
  writeGeneration,
} from '../engine/config/index.js';
import { ApplicationLoadError, type ApplicationLocation } from './application-loader.js';
import type { CliOutput } from './cli.output.js';
import { checkCodingAgents } from './config-sync.coding-agents.js';
import { resolveProjectRoot } from './project-root.js';

/** Options of `wildo config sync` (`app` and `exportName` locate the application whose coding agents are checked). */
export interface ConfigSyncOptions extends ApplicationLocation {
  /** Compare only: write nothing, exit 1 when the generation on disk is missing or stale. */
  check: boolean;
}

async function check(rootDir: string, generation: Parameters<typeof compareGeneration>[1], output: CliOutput) {
  const { missing, stale } = await compareGeneration(rootDir, generation);
  if (missing.length === 0 && stale.length === 0) {
    output.out(`${GENERATED_DIR} is up to date with ${CONFIG_FILE_NAME}.`);
    return 0;
  }
  for (const file of missing) output.err(`missing: ${file}`);
  for (const file of stale) output.err(`stale:   ${file}`);
  output.err(`${GENERATED_DIR} does not match ${CONFIG_FILE_NAME}. Run \`${SYNC_COMMAND}\` and commit the result.`);
  return 1;
}

function report(error: unknown, output: CliOutput): number {
  if (error instanceof ConfigInvalidError) {
    output.err(
      `${CONFIG_FILE_NAME} is invalid (${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}); nothing was written.`,
    );
    for (const problem of error.problems) output.err(`${problem.path}: ${problem.message}`);
    return 1;
  }
  if (error instanceof WildoConfigError || error instanceof ApplicationLoadError) {
    output.err(error.message);
    return 1;
  }
  // Unexpected failures (a disk error, a bug) still get one line, not a stack dump.
  output.err(`${SYNC_COMMAND} failed: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}

/**
 * Validates `wildo.saas.config.ts` and writes (or, with `check`, compares) `.wildo-saas/generated`.
 * Nothing is written unless the whole configuration is valid. Returns the process exit code.
 */
export async function runConfigSync(options: ConfigSyncOptions, output: CliOutput): Promise<number> {
  try {
    const rootDir = resolveProjectRoot(options);
    const { config, generation } = await prepareGeneration(rootDir);
    const coding = await checkCodingAgents(config, { ...options, root: rootDir });
    if (coding.checked && coding.problems.length > 0) {
      const count = coding.problems.length;
      output.err(
        `The coding agents of ${coding.file} do not match ${CONFIG_FILE_NAME} (${count} problem${count === 1 ? '' : 's'}); nothing was written.`,
      );
      for (const problem of coding.problems) output.err(problem);
      return 1;
    }
    if (!coding.checked && coding.note) output.out(coding.note);
    if (options.check) return await check(rootDir, generation, output);
    const { written, unchanged } = await writeGeneration(rootDir, generation);
    for (const file of written) output.out(`wrote     ${file}`);
    for (const file of unchanged) output.out(`unchanged ${file}`);
    output.out(written.length === 0 ? `${GENERATED_DIR} was already up to date.` : `${GENERATED_DIR} synchronized.`);
    return 0;
  } catch (error) {
    return report(error, output);
  }
}
