import type { ConfigProblem } from '@wildo/shared-lib';
import { CONFIG_FILE_NAME, GENERATED_DIR, SYNC_COMMAND } from './config.constants.js';

/** What went wrong while locating, loading, validating or checking the application configuration. */
export type WildoConfigErrorCode =
  | 'PROJECT_ROOT_NOT_FOUND'
  | 'CONFIG_LOAD_FAILED'
  | 'CONFIG_INVALID'
  | 'GENERATION_STALE';

/** The base of configuration errors; `message` is written for the operator and names the fix. */
export class WildoConfigError extends Error {
  override readonly name: string = 'WildoConfigError';
  readonly code: WildoConfigErrorCode;

  constructor(code: WildoConfigErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** No `wildo.saas.config.ts` in the given directory or any parent (or in the `--root` directory). */
export class ProjectRootNotFoundError extends WildoConfigError {
  override readonly name = 'ProjectRootNotFoundError';

  constructor(
    readonly searchedFrom: string,
    readonly searchedUpward: boolean,
  ) {
    super(
      'PROJECT_ROOT_NOT_FOUND',
      searchedUpward
        ? `No ${CONFIG_FILE_NAME} found in ${searchedFrom} or any parent directory; run from inside the project or pass --root <dir>.`
        : `No ${CONFIG_FILE_NAME} found in ${searchedFrom}; pass the directory that holds it as --root.`,
    );
  }
}

/** The configuration module could not be evaluated (syntax error, a throw, no default export). */
export class ConfigLoadError extends WildoConfigError {
  override readonly name = 'ConfigLoadError';

  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('CONFIG_LOAD_FAILED', `${CONFIG_FILE_NAME} could not be loaded: ${reason}`, options);
  }
}

/** The configuration loaded but breaks its schema or a cross-section rule; `problems` lists each one. */
export class ConfigInvalidError extends WildoConfigError {
  override readonly name = 'ConfigInvalidError';

  constructor(readonly problems: readonly ConfigProblem[]) {
    const lines = problems.map((problem) => `${problem.path}: ${problem.message}`);
    super('CONFIG_INVALID', [`${CONFIG_FILE_NAME} is invalid:`, ...lines].join('\n'));
  }
}

/** The generated files on disk do not match the current configuration (or are missing). */
export class GenerationStaleError extends WildoConfigError {
  override readonly name = 'GenerationStaleError';

  constructor(
    readonly missing: readonly string[],
    readonly stale: readonly string[],
  ) {
    const parts = [
      ...(missing.length > 0 ? [`missing: ${missing.join(', ')}`] : []),
      ...(stale.length > 0 ? [`stale: ${stale.join(', ')}`] : []),
    ];
    super(
      'GENERATION_STALE',
      `The generated runtime in ${GENERATED_DIR} does not match ${CONFIG_FILE_NAME} (${parts.join('; ')}). Run \`${SYNC_COMMAND}\`.`,
    );
  }
}
