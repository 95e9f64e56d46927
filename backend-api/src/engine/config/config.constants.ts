/** The application configuration file; its directory is the project root. */
export const CONFIG_FILE_NAME = 'wildo.saas.config.ts';

/** Where `wildo config sync` writes, relative to the project root. Never edited by hand. */
export const GENERATED_DIR = '.wildo-saas/generated';

/** The generated files, as paths relative to the project root (the keys of a rendered generation). */
export const GENERATED_FILES = {
  providerCatalogTypes: `${GENERATED_DIR}/provider-catalog.types.ts`,
  runtimeJson: `${GENERATED_DIR}/runtime.json`,
  runtimeEnv: `${GENERATED_DIR}/runtime.env`,
} as const;

/** Bumped when the shape of the generated files changes, so older generations read as stale. */
export const GENERATION_FORMAT_VERSION = 1;

/** The command that regenerates; every staleness message names it. */
export const SYNC_COMMAND = 'wildo config sync';
